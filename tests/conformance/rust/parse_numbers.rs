// Parsing text: parse::<i32>() with errors, splitting CSV lines, summing columns.
fn parse_line(line: &str) -> Result<Vec<i32>, String> {
    line.split(',')
        .map(|f| f.trim().parse::<i32>().map_err(|e| format!("bad field {:?}: {}", f.trim(), e)))
        .collect()
}

fn main() {
    let input = "1, 2, 3\n4,5,6\n7, x, 9\n10,11,12";
    let mut totals = vec![0; 3];
    for (i, line) in input.lines().enumerate() {
        match parse_line(line) {
            Ok(nums) => {
                for (t, n) in totals.iter_mut().zip(nums.iter()) {
                    *t += n;
                }
                println!("line {}: {:?}", i + 1, nums);
            }
            Err(e) => println!("line {}: {}", i + 1, e),
        }
    }
    println!("totals {:?}", totals);
    let x: f64 = "2.5".parse().unwrap();
    let y = "42".parse::<u8>().unwrap_or(0);
    let z = "300".parse::<u8>().is_err();
    println!("{} {} {}", x * 2.0, y, z);
}
