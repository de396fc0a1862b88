// Sieve of Eratosthenes, prime factorisation, gcd and lcm on u64.
fn sieve(n: usize) -> Vec<usize> {
    let mut is = vec![true; n + 1];
    is[0] = false;
    if n >= 1 {
        is[1] = false;
    }
    let mut i = 2;
    while i * i <= n {
        if is[i] {
            let mut j = i * i;
            while j <= n {
                is[j] = false;
                j += i;
            }
        }
        i += 1;
    }
    (0..=n).filter(|&i| is[i]).collect()
}

fn factor(mut n: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        let mut k = 0;
        while n % p == 0 {
            n /= p;
            k += 1;
        }
        if k > 0 {
            out.push((p, k));
        }
        p += 1;
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn main() {
    let p = sieve(100);
    println!("{} primes: {:?}", p.len(), &p[..10]);
    println!("{:?}", factor(360));
    println!("{:?}", factor(600851475143));
    println!("{}", gcd(1071, 462));
    let lcm = (1..=20u64).fold(1, |acc, x| acc / gcd(acc, x) * x);
    println!("{}", lcm);
    println!("{}", u64::MAX);
}
