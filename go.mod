module github.com/simdkit/elem

go 1.26.0

require (
	github.com/mmcloughlin/avo v0.5.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/arch v0.32.0 // indirect
	golang.org/x/mod v0.6.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.2.0 // indirect
)
