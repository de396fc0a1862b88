-- hello: prints hello; start-up time (bench/mty/hello.mty).
print("hello")
