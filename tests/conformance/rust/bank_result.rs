// Error handling with Result, a custom error enum, the ? operator and Display.
use std::fmt;

#[derive(Debug)]
enum BankError {
    Insufficient { need: u64, have: u64 },
    NoAccount(String),
    Frozen,
}

impl fmt::Display for BankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankError::Insufficient { need, have } => write!(f, "need {} but have {}", need, have),
            BankError::NoAccount(n) => write!(f, "no account {}", n),
            BankError::Frozen => write!(f, "account frozen"),
        }
    }
}

struct Account {
    name: String,
    balance: u64,
    frozen: bool,
}

fn find<'a>(accts: &'a mut Vec<Account>, name: &str) -> Result<&'a mut Account, BankError> {
    accts.iter_mut().find(|a| a.name == name).ok_or(BankError::NoAccount(name.to_string()))
}

fn withdraw(accts: &mut Vec<Account>, name: &str, amt: u64) -> Result<u64, BankError> {
    let a = find(accts, name)?;
    if a.frozen {
        return Err(BankError::Frozen);
    }
    if a.balance < amt {
        return Err(BankError::Insufficient { need: amt, have: a.balance });
    }
    a.balance -= amt;
    Ok(a.balance)
}

fn main() {
    let mut accts = vec![
        Account { name: "ann".to_string(), balance: 100, frozen: false },
        Account { name: "bob".to_string(), balance: 50, frozen: true },
    ];
    for (n, amt) in [("ann", 30), ("ann", 100), ("bob", 10), ("cy", 1)] {
        match withdraw(&mut accts, n, amt) {
            Ok(left) => println!("{} withdrew {}, left {}", n, amt, left),
            Err(e) => println!("{}: error: {}", n, e),
        }
    }
    println!("{:?}", withdraw(&mut accts, "zed", 5).unwrap_err());
}
