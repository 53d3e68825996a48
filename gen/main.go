// Command gen writes elem's generated code from the registry (gen/registry):
// for every family of operations, the amd64 kernels (with avo) and the arm64
// kernels (with our encoder, gen/arm64enc) with their Go stubs, the
// dispatch of internal/kernel (implementation constants from the ISA rows,
// per-op entries and switches, the generic row loops), elem's op types
// and named calls, and internal/cpuinfo's CPUID instruction (with avo).
//
// It writes into the repository root given by -root (the working directory
// by default). go generate runs it from the root (see doc.go) as `go run -C
// gen . -root ..`: gen is a module of its own, so that avo never enters the
// library's build list, and -C runs it inside that module.
package main

import (
	"flag"
	"log"
	"os"
	"runtime/debug"

	"github.com/simdkit/elem/gen/registry"
)

// kernelDir is internal/kernel, relative to the repository root.
const kernelDir = "internal/kernel"

func main() {
	root := flag.String("root", ".", "the repository root, where the generated files go")
	flag.Parse()
	// The generator's heap is small next to the machine, and collecting it
	// often cost a quarter of the register allocation's time.
	debug.SetGCPercent(400)
	if err := os.Chdir(*root); err != nil {
		log.Fatalf("gen: %v", err)
	}
	steps := []func() error{
		func() error { return writeKernelGo(kernelDir) },
		func() error { return writeMathGo(kernelDir) },
		func() error { return writeImpls(kernelDir) },
		func() error { return writeTypes(kernelDir) },
		func() error { return writeElemGo("ops_generated.go") },
		func() error { return writeKernelTests(kernelDir) },
		func() error { return writeElemTests("ops_generated_test.go") },
		func() error { return generateReduceAMD64(kernelDir) },
		func() error { return generateReduceARM64(kernelDir) },
		func() error { return generateHalfARM64(kernelDir) },
		func() error { return generateComplexARM64(kernelDir) },
		func() error { return writeReduceGo(kernelDir) },
		func() error { return generateCPUID(cpuinfoDir) },
		func() error { return generateFence(kernelDir) },
		func() error { return generateTransposeAMD64(kernelDir) },
		func() error { return generateHalfAMD64(kernelDir) },
		func() error { return generateComplexAMD64(kernelDir) },
		func() error { return generateFuseAMD64(kernelDir) },
	}
	steps = append(steps, func() error { return generateConvertAMD64(kernelDir) })
	for _, f := range registry.Families {
		steps = append(steps,
			func() error { return generateAMD64(kernelDir, f) },
			func() error { return generateARM64(kernelDir, f) })
	}
	for _, step := range steps {
		if err := step(); err != nil {
			log.Fatalf("gen: %v", err)
		}
	}
}
