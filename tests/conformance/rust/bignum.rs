// Big-number arithmetic on base-10^9 limbs: factorial of 50 and 2^200.
fn mul_small(a: &mut Vec<u64>, m: u64) {
    let mut carry = 0u64;
    for limb in a.iter_mut() {
        let x = *limb * m + carry;
        *limb = x % 1_000_000_000;
        carry = x / 1_000_000_000;
    }
    while carry > 0 {
        a.push(carry % 1_000_000_000);
        carry /= 1_000_000_000;
    }
}

fn add(a: &Vec<u64>, b: &Vec<u64>) -> Vec<u64> {
    let mut out = Vec::new();
    let mut carry = 0;
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
        out.push(x % 1_000_000_000);
        carry = x / 1_000_000_000;
    }
    if carry > 0 {
        out.push(carry);
    }
    out
}

fn to_string(a: &Vec<u64>) -> String {
    let mut s = format!("{}", a[a.len() - 1]);
    for limb in a.iter().rev().skip(1) {
        s.push_str(&format!("{:09}", limb));
    }
    s
}

fn main() {
    let mut f = vec![1u64];
    for i in 2..=50 {
        mul_small(&mut f, i);
    }
    println!("50! = {}", to_string(&f));
    let mut p = vec![1u64];
    for _ in 0..200 {
        p = add(&p, &p);
    }
    println!("2^200 = {}", to_string(&p));
    println!("digits: {}", to_string(&p).len());
}
