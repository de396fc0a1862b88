struct User { name: String, age: i64, email: String, id: i64 }
struct Account { id: i64, email: String, owner: String }
fn main() {
    let users = [User { name: "ann".to_string(), age: 31, email: "ann@x.org".to_string(), id: 7 },
                 User { name: "bo".to_string(), age: 25, email: "bo@y.org".to_string(), id: 8 }];
    let accts = [Account { id: 100, email: "ops@z.org".to_string(), owner: "ann".to_string() }];
    let emails: Vec<String> = users.iter().map(|u| u.email.clone()).collect();
    println!("{:?}", emails);
    let ids: Vec<i64> = users.iter().map(|u| u.id).collect();
    println!("{:?}", ids);
    println!("{:?}", accts.iter().map(|a| a.email.clone()).collect::<Vec<String>>());
    let get_id = |u: User| u.id;
    println!("{}", get_id(User { name: "cy".to_string(), age: 40, email: "c@c".to_string(), id: 9 }));
    let _ = (&users[0].name, users[0].age, accts[0].id, &accts[0].owner);
}
