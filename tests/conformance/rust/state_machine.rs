// A traffic-light state machine and a vending machine with enums and match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Light {
    Red,
    Green,
    Yellow,
}

impl Light {
    fn next(self) -> Light {
        match self {
            Light::Red => Light::Green,
            Light::Green => Light::Yellow,
            Light::Yellow => Light::Red,
        }
    }
    fn secs(&self) -> u32 {
        match self {
            Light::Red => 30,
            Light::Green => 25,
            Light::Yellow => 5,
        }
    }
}

enum Event {
    Coin(u32),
    Select(&'static str, u32),
    Refund,
}

fn main() {
    let mut l = Light::Red;
    let mut t = 0;
    for _ in 0..7 {
        t += l.secs();
        l = l.next();
    }
    println!("{:?} after {}s", l, t);
    let mut credit = 0;
    let events = vec![Event::Coin(25), Event::Coin(100), Event::Select("chips", 150), Event::Coin(50), Event::Select("chips", 150), Event::Refund];
    for e in events {
        match e {
            Event::Coin(c) => credit += c,
            Event::Select(name, price) if credit >= price => {
                credit -= price;
                println!("vend {} (left {})", name, credit);
            }
            Event::Select(name, price) => println!("need {} more for {}", price - credit, name),
            Event::Refund => {
                println!("refund {}", credit);
                credit = 0;
            }
        }
    }
}
