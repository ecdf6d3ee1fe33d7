module capsa.example/go-engine

go 1.19
