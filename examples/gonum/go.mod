module github.com/simdkit/elem/examples/gonum

go 1.26.0

require (
	github.com/simdkit/elem v0.0.0
	github.com/stretchr/testify v1.12.1
	gonum.org/v1/gonum v0.17.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/simdkit/elem => ../..
