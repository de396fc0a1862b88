// Counting islands with an explicit-stack DFS flood fill; largest island size.
fn main() {
    let map = ["11000", "11011", "00100", "00011", "10011"];
    let mut g: Vec<Vec<u8>> = map.iter().map(|r| r.bytes().collect()).collect();
    let (h, w) = (g.len(), g[0].len());
    let mut count = 0;
    let mut largest = 0;
    for r in 0..h {
        for c in 0..w {
            if g[r][c] != b'1' {
                continue;
            }
            count += 1;
            let mut size = 0;
            let mut stack = vec![(r, c)];
            g[r][c] = b'0';
            while let Some((y, x)) = stack.pop() {
                size += 1;
                let mut nb = Vec::new();
                if y > 0 { nb.push((y - 1, x)); }
                if y + 1 < h { nb.push((y + 1, x)); }
                if x > 0 { nb.push((y, x - 1)); }
                if x + 1 < w { nb.push((y, x + 1)); }
                for (ny, nx) in nb {
                    if g[ny][nx] == b'1' {
                        g[ny][nx] = b'0';
                        stack.push((ny, nx));
                    }
                }
            }
            largest = largest.max(size);
        }
    }
    println!("islands {} largest {}", count, largest);
}
