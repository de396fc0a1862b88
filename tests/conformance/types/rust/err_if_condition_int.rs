fn main() {
    let n = 3;
    if n { // <-
        println!("yes");
    }
}
