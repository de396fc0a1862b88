// N-queens by backtracking: counts solutions and prints the first board for n = 6.
fn solve(n: usize, row: usize, cols: &mut Vec<bool>, d1: &mut Vec<bool>, d2: &mut Vec<bool>, place: &mut Vec<usize>, first: &mut Option<Vec<usize>>) -> u32 {
    if row == n {
        if first.is_none() {
            *first = Some(place.clone());
        }
        return 1;
    }
    let mut count = 0;
    for c in 0..n {
        if !cols[c] && !d1[row + c] && !d2[row + n - 1 - c] {
            cols[c] = true;
            d1[row + c] = true;
            d2[row + n - 1 - c] = true;
            place.push(c);
            count += solve(n, row + 1, cols, d1, d2, place, first);
            place.pop();
            cols[c] = false;
            d1[row + c] = false;
            d2[row + n - 1 - c] = false;
        }
    }
    count
}

fn main() {
    for n in 1..=8 {
        let mut first = None;
        let c = solve(n, 0, &mut vec![false; n], &mut vec![false; 2 * n], &mut vec![false; 2 * n], &mut Vec::new(), &mut first);
        println!("n = {}: {} solutions", n, c);
        if n == 6 {
            if let Some(p) = first {
                for &c in &p {
                    let line: String = (0..n).map(|i| if i == c { 'Q' } else { '.' }).collect();
                    println!("{}", line);
                }
            }
        }
    }
}
