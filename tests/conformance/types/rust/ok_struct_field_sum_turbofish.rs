struct Order { qty: i64, price: i64, weight: f64 }
fn main() {
    let orders = [Order { qty: 2, price: 5, weight: 1.5 }, Order { qty: 1, price: 30, weight: 0.25 }];
    println!("{}", orders.iter().map(|o| o.qty * o.price).sum::<i64>());
    let big = orders.iter().max_by_key(|o| o.price).unwrap();
    println!("{}", big.qty);
    let lightest = orders.iter().map(|o| o.weight).fold(f64::INFINITY, |a, b| a.min(b));
    println!("{}", lightest);
}
