fn main() {
    let n = 3;
    if n == "3" { // <-
        println!("same");
    }
}
