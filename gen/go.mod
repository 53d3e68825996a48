module github.com/simdkit/elem/gen

go 1.26.0

require (
	github.com/mmcloughlin/avo v0.5.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/arch v0.32.0
	golang.org/x/sync v0.16.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
)
