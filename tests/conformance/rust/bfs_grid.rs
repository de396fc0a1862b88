// Breadth-first search on a grid maze with a VecDeque; path length and visited count.
use std::collections::VecDeque;

fn bfs(grid: &[&str], start: (usize, usize), goal: (usize, usize)) -> Option<usize> {
    let h = grid.len();
    let w = grid[0].len();
    let cells: Vec<Vec<char>> = grid.iter().map(|r| r.chars().collect()).collect();
    let mut dist = vec![vec![usize::MAX; w]; h];
    let mut q = VecDeque::new();
    dist[start.0][start.1] = 0;
    q.push_back(start);
    while let Some((r, c)) = q.pop_front() {
        if (r, c) == goal {
            return Some(dist[r][c]);
        }
        let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        for (dr, dc) in dirs.iter() {
            let nr = r as i32 + dr;
            let nc = c as i32 + dc;
            if nr < 0 || nc < 0 || nr >= h as i32 || nc >= w as i32 {
                continue;
            }
            let (nr, nc) = (nr as usize, nc as usize);
            if cells[nr][nc] != '#' && dist[nr][nc] == usize::MAX {
                dist[nr][nc] = dist[r][c] + 1;
                q.push_back((nr, nc));
            }
        }
    }
    None
}

fn main() {
    let maze = ["S..#....", ".#.#.##.", ".#...#..", ".####.#.", "......#G"];
    println!("{:?}", bfs(&maze, (0, 0), (4, 7)));
    let blocked = ["S#", "#G"];
    println!("{:?}", bfs(&blocked, (0, 0), (1, 1)));
}
