// Gaussian elimination on f64 matrices: determinant, solving a system, identity checks.
fn det(mut m: Vec<Vec<f64>>) -> f64 {
    let n = m.len();
    let mut d = 1.0;
    for col in 0..n {
        let mut pivot = col;
        for r in col + 1..n {
            if m[r][col].abs() > m[pivot][col].abs() {
                pivot = r;
            }
        }
        if m[pivot][col].abs() < 1e-12 {
            return 0.0;
        }
        if pivot != col {
            m.swap(pivot, col);
            d = -d;
        }
        d *= m[col][col];
        for r in col + 1..n {
            let f = m[r][col] / m[col][col];
            for c in col..n {
                m[r][c] -= f * m[col][c];
            }
        }
    }
    d
}

fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a.iter().zip(b.iter()).map(|(row, &bi)| {
        let mut r = row.clone();
        r.push(bi);
        r
    }).collect();
    for col in 0..n {
        let p = (col..n).max_by(|&x, &y| m[x][col].abs().partial_cmp(&m[y][col].abs()).unwrap()).unwrap();
        m.swap(p, col);
        for r in 0..n {
            if r != col {
                let f = m[r][col] / m[col][col];
                for c in col..=n {
                    m[r][c] -= f * m[col][c];
                }
            }
        }
    }
    (0..n).map(|i| m[i][n] / m[i][i]).collect()
}

fn main() {
    let a = vec![vec![2.0, 1.0, -1.0], vec![-3.0, -1.0, 2.0], vec![-2.0, 1.0, 2.0]];
    println!("det = {:.3}", det(a.clone()));
    let x = solve(&a, &[8.0, -11.0, -3.0]);
    println!("x = {:?}", x.iter().map(|v| format!("{:.3}", v)).collect::<Vec<_>>());
    let singular = vec![vec![1.0, 2.0], vec![2.0, 4.0]];
    println!("singular det = {}", det(singular));
    let id: Vec<Vec<f64>> = (0..4).map(|i| (0..4).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    println!("det(I4) = {}", det(id));
    let h: Vec<Vec<f64>> = (1..=3).map(|i| (1..=3).map(|j| 1.0 / (i + j - 1) as f64).collect()).collect();
    println!("hilbert det = {:.6e}", det(h));
}
