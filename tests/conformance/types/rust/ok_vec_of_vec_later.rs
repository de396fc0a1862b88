fn main() {
    let mut grid = Vec::new();
    for r in 0..3 {
        let mut row = Vec::new();
        for c in 0..2 {
            row.push(r * 10 + c);
        }
        grid.push(row);
    }
    println!("{:?}", grid);
    let mut t = Vec::new();
    for c in 0..2 {
        t.push(grid.iter().map(|row| row[c]).collect::<Vec<i64>>());
    }
    println!("{:?}", t);
    println!("{}", grid[2][1] + t[0][1]);
}
