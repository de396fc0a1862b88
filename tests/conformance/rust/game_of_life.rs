// Conway's game of life on a small wrapping grid: a glider for four steps.
fn step(g: &Vec<Vec<bool>>) -> Vec<Vec<bool>> {
    let h = g.len() as i32;
    let w = g[0].len() as i32;
    let mut out = vec![vec![false; w as usize]; h as usize];
    for r in 0..h {
        for c in 0..w {
            let mut n = 0;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    if dr == 0 && dc == 0 {
                        continue;
                    }
                    let rr = ((r + dr + h) % h) as usize;
                    let cc = ((c + dc + w) % w) as usize;
                    if g[rr][cc] {
                        n += 1;
                    }
                }
            }
            let alive = g[r as usize][c as usize];
            out[r as usize][c as usize] = matches!((alive, n), (true, 2) | (true, 3) | (false, 3));
        }
    }
    out
}

fn show(g: &Vec<Vec<bool>>) {
    for row in g {
        println!("{}", row.iter().map(|&b| if b { '#' } else { '.' }).collect::<String>());
    }
}

fn main() {
    let mut g = vec![vec![false; 6]; 6];
    for &(r, c) in &[(0, 1), (1, 2), (2, 0), (2, 1), (2, 2)] {
        g[r][c] = true;
    }
    for _ in 0..4 {
        g = step(&g);
    }
    show(&g);
    let alive: usize = g.iter().map(|row| row.iter().filter(|&&b| b).count()).sum();
    println!("alive {}", alive);
}
