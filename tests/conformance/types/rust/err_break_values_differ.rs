fn main() {
    let mut i = 0;
    let r = loop {
        i += 1;
        if i > 5 { break i }
        if i == 3 { break "three" } // <-
    };
    println!("{}", r);
}
