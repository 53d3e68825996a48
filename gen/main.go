// Command gen writes elem's generated code from the op table in package asm:
// kernel_amd64.s and kernel_amd64.go with avo, kernel_arm64.s and
// kernel_arm64.go with the asm package's arm64 emitter, and ops_generated.go
// (the named calls and the generic row loops). Run it from the module root
// through go generate (see doc.go); it takes avo's flags, and the go:generate
// line passes -out, -stubs and -pkg explicitly.
package main

import (
	"log"

	. "github.com/mmcloughlin/avo/build"
)

func main() {
	if err := generateGo("ops_generated.go"); err != nil {
		log.Fatalf("gen: %v", err)
	}
	if err := generateRunSwitch("kernel_switch_amd64.go", x86ImplNames(), true); err != nil {
		log.Fatalf("gen: %v", err)
	}
	if err := generateRunSwitch("kernel_switch_arm64.go", []string{arm64Impl}, false); err != nil {
		log.Fatalf("gen: %v", err)
	}
	if err := generateARM64(); err != nil {
		log.Fatalf("gen: %v", err)
	}
	generateAMD64()
	Generate()
}
