fn main() {
    let budget = 20;
    let cost = 12;
    if cost > budget {
        println!("over");
    } else {
        println!("{}", budget - cost);
    }
}
