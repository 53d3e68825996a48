package registry

import "strings"

// ISA describes one assembly implementation: the instruction set a family of
// kernels is written in, how dispatch recognises a CPU that has it, and what
// its kernels can do. The dispatch code of internal/kernel (implementation
// constants and names, the feature checks, the default preference,
// streaming support) is generated from these rows.
type ISA struct {
	Name   string // kernel name suffix and, in lower case, the ELEM_IMPL name: "AVX2"
	Arch   string // GOARCH: "amd64"
	Doc    string // what it is, for the constant's doc comment
	Vector int    // vector register width in bytes
	// Features are the x/sys/cpu fields a CPU must have, all of them, as
	// Go expressions ("cpu.X86.HasAVX2"). The generator checks that every
	// instruction avo emits needs nothing else.
	Features []string
	// Stream is whether its kernels have non-temporal-store forms.
	Stream bool
	// Rank orders the default preference among the available ones: the
	// highest available rank runs unless ELEM_IMPL says otherwise.
	Rank int
}

// ISAs lists the assembly implementations of every architecture, those of
// one architecture from the narrowest vectors to the widest (the order of
// kernel.Available, whose last is kernel.Widest); the generic Go kernels
// are implementation 0 everywhere and are not listed.
var ISAs = []*ISA{
	{Name: "AVX2", Arch: "amd64", Doc: "the AVX2 kernels (256-bit vectors)", Vector: 32,
		Features: []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2"}, Stream: true, Rank: 2},
	{Name: "AVX512", Arch: "amd64", Doc: "the AVX-512 kernels (512-bit vectors, opmask tails)", Vector: 64,
		Features: []string{"cpu.X86.HasAVX", "cpu.X86.HasAVX2", "cpu.X86.HasAVX512F", "cpu.X86.HasAVX512BW", "cpu.X86.HasAVX512DQ", "cpu.X86.HasAVX512VL"},
		Stream:   true, Rank: 1},
	{Name: "NEON", Arch: "arm64", Doc: "the NEON (Advanced SIMD) kernels (128-bit vectors)", Vector: 16,
		Features: []string{"cpu.ARM64.HasASIMD"}, Rank: 1},
}

// Env is the ELEM_IMPL name: "avx2".
func (i *ISA) Env() string { return strings.ToLower(i.Name) }

// Archs lists the architectures with assembly, in ISAs order.
func Archs() []string {
	var archs []string
	for _, i := range ISAs {
		if len(archs) == 0 || archs[len(archs)-1] != i.Arch {
			archs = append(archs, i.Arch)
		}
	}
	return archs
}

// ISAsOf lists the implementations of one architecture.
func ISAsOf(arch string) []*ISA {
	var isas []*ISA
	for _, i := range ISAs {
		if i.Arch == arch {
			isas = append(isas, i)
		}
	}
	return isas
}
