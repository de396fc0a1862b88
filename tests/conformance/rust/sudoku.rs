// A sudoku solver by backtracking over a 9x9 grid of u8.
fn ok(g: &[[u8; 9]; 9], r: usize, c: usize, v: u8) -> bool {
    for i in 0..9 {
        if g[r][i] == v || g[i][c] == v {
            return false;
        }
    }
    let (br, bc) = (r / 3 * 3, c / 3 * 3);
    for i in 0..3 {
        for j in 0..3 {
            if g[br + i][bc + j] == v {
                return false;
            }
        }
    }
    true
}

fn solve(g: &mut [[u8; 9]; 9]) -> bool {
    for r in 0..9 {
        for c in 0..9 {
            if g[r][c] == 0 {
                for v in 1..=9 {
                    if ok(g, r, c, v) {
                        g[r][c] = v;
                        if solve(g) {
                            return true;
                        }
                        g[r][c] = 0;
                    }
                }
                return false;
            }
        }
    }
    true
}

fn main() {
    let puzzle = [
        "530070000", "600195000", "098000060", "800060003", "400803001", "700020006", "060000280",
        "000419005", "000080079",
    ];
    let mut g = [[0u8; 9]; 9];
    for (r, line) in puzzle.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            g[r][c] = ch.to_digit(10).unwrap() as u8;
        }
    }
    println!("solved: {}", solve(&mut g));
    for row in g.iter() {
        let s: Vec<String> = row.iter().map(|d| d.to_string()).collect();
        println!("{}", s.join(" "));
    }
}
