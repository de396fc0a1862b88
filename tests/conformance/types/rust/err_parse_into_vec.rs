fn main() { let v: Vec<i64> = "1,2".parse().unwrap(); println!("{}", v.len()) } // <-
