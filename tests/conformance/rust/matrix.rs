// Matrices as Vec<Vec<i64>>: multiplication, transpose, fast exponentiation (Fibonacci).
type Mat = Vec<Vec<i64>>;

fn mul(a: &Mat, b: &Mat) -> Mat {
    let n = a.len();
    let m = b[0].len();
    let k = b.len();
    let mut c = vec![vec![0; m]; n];
    for i in 0..n {
        for j in 0..m {
            for t in 0..k {
                c[i][j] += a[i][t] * b[t][j];
            }
        }
    }
    c
}

fn transpose(a: &Mat) -> Mat {
    (0..a[0].len()).map(|j| a.iter().map(|row| row[j]).collect()).collect()
}

fn pow(m: &Mat, mut e: u32) -> Mat {
    let n = m.len();
    let mut r: Mat = (0..n).map(|i| (0..n).map(|j| if i == j { 1 } else { 0 }).collect()).collect();
    let mut b = m.clone();
    while e > 0 {
        if e & 1 == 1 {
            r = mul(&r, &b);
        }
        b = mul(&b, &b);
        e >>= 1;
    }
    r
}

fn main() {
    let a = vec![vec![1, 2, 3], vec![4, 5, 6]];
    let b = vec![vec![7, 8], vec![9, 10], vec![11, 12]];
    println!("{:?}", mul(&a, &b));
    println!("{:?}", transpose(&a));
    let f = vec![vec![1, 1], vec![1, 0]];
    println!("fib(50) = {}", pow(&f, 50)[0][1]);
}
