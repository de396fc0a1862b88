// A spiral walk over a matrix, Pascal's triangle rows, and a multiplication table with padding.
fn spiral(m: &Vec<Vec<i32>>) -> Vec<i32> {
    let mut out = Vec::new();
    if m.is_empty() {
        return out;
    }
    let (mut top, mut left) = (0i32, 0i32);
    let mut bottom = m.len() as i32 - 1;
    let mut right = m[0].len() as i32 - 1;
    while top <= bottom && left <= right {
        for c in left..=right { out.push(m[top as usize][c as usize]); }
        top += 1;
        for r in top..=bottom { out.push(m[r as usize][right as usize]); }
        right -= 1;
        if top <= bottom {
            for c in (left..=right).rev() { out.push(m[bottom as usize][c as usize]); }
            bottom -= 1;
        }
        if left <= right {
            for r in (top..=bottom).rev() { out.push(m[r as usize][left as usize]); }
            left += 1;
        }
    }
    out
}

fn main() {
    let m: Vec<Vec<i32>> = (0..3).map(|r| (0..4).map(|c| r * 4 + c + 1).collect()).collect();
    println!("{:?}", spiral(&m));
    let mut row = vec![1u64];
    for _ in 0..6 {
        println!("{:?}", row);
        let mut next = vec![1u64];
        for w in row.windows(2) {
            next.push(w[0] + w[1]);
        }
        next.push(1);
        row = next;
    }
    for i in 1..=4 {
        let line: Vec<String> = (1..=4).map(|j| format!("{:>3}", i * j)).collect();
        println!("{}", line.join(""));
    }
}
