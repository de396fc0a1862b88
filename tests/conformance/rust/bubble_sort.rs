// Sorting by hand: bubble sort, insertion sort and selection sort on a Vec<i64>.
fn bubble(v: &mut Vec<i64>) {
    let n = v.len();
    for i in 0..n {
        for j in 0..n - 1 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
            }
        }
    }
}

fn insertion(v: &mut Vec<i64>) {
    for i in 1..v.len() {
        let key = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > key {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = key;
    }
}

fn selection(v: &mut [i64]) {
    for i in 0..v.len() {
        let mut m = i;
        for j in i + 1..v.len() {
            if v[j] < v[m] {
                m = j;
            }
        }
        v.swap(i, m);
    }
}

fn main() {
    let data = vec![5, -3, 9, 0, 2, 2, 8, -7, 4];
    let mut a = data.clone();
    bubble(&mut a);
    println!("{:?}", a);
    let mut b = data.clone();
    insertion(&mut b);
    println!("{:?}", b);
    let mut c = data.clone();
    selection(&mut c);
    println!("{:?}", c);
    println!("{}", a == b && b == c);
}
