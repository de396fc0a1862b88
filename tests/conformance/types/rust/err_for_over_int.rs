fn main() {
    let n = 5;
    for i in n { // <-
        println!("{}", i);
    }
}
