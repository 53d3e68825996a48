package kernel_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/simdkit/elem/internal/kernel"
)

// FuzzKernels compares a kernel with the generic reference on operands made
// of fuzzer-chosen bits: the fuzz input picks the implementation (of those
// this CPU has), the element type, streaming stores, the family, op and
// kind, the rows and the start offset, so that one fuzzing run reaches
// every kernel.
func FuzzKernels(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(1), []byte{})
	f.Add(uint8(1), uint8(1), uint8(2), uint8(5), uint8(3), uint8(2), []byte{0, 0, 0xc0, 0x7f, 1, 0, 0xc0, 0x7f, 0, 0, 0, 0x80, 0, 0, 0, 0})
	f.Add(uint8(2), uint8(3), uint8(1), uint8(4), uint8(1), uint8(3), make([]byte, 4*77))
	f.Add(uint8(3), uint8(4), uint8(7), uint8(1), uint8(15), uint8(1), []byte("a longer seed of arbitrary bytes that fill several vectors and a tail"))
	cases := typeCases(6)
	f.Fuzz(func(t *testing.T, impl, setup, family, op, off, rows uint8, data []byte) {
		impls := kernel.Available()
		restore := kernel.Current()
		kernel.Use(impls[int(impl)%len(impls)], "fuzz")
		defer kernel.Use(restore, "fuzz")
		tc := cases[int(setup)%len(cases)]
		fuzzOne(t, tc, setup/uint8(len(cases)), family, op, off, rows, data)
	})
}

func fuzzOne(t *testing.T, tc typeCase, setup, family, op, off, rows uint8, data []byte) {
	f := tc.families[int(family)%len(tc.families)]
	k := int(setup>>1) % len(f.kinds)
	o := int(op) % len(f.ops)
	stream := setup&1 == 1
	m := 1 + int(rows)%3
	width := int(rawSize(tc.makeOut("T", 1)))
	words := len(data) / width
	word := func(i int) uint64 {
		if i < 0 || words == 0 {
			return 0 // the unused cells before an unaligned start
		}
		var b [8]byte
		copy(b[:], data[(i%words)*width:][:width])
		return binary.LittleEndian.Uint64(b[:])
	}
	n := words / (m * (len(f.inputs) + 1))
	start := int(off) % 16
	ins := make([]any, len(f.inputs))
	lds := make([]int, len(f.inputs))
	next := 0
	for i, typ := range f.inputs {
		count, ld := m, 1
		if f.vector[k][i] {
			count, ld = m*n, n
		}
		lds[i] = ld
		base := next
		next += count
		bits := func(j int) uint64 { return word(base + j) }
		switch typ {
		case "bool":
			b := make([]bool, count)
			for j := range b {
				b[j] = bits(j)&1 == 1
			}
			ins[i] = b
		case "uint":
			c := make([]uint, count)
			for j := range c {
				c[j] = uint(bits(j))
			}
			ins[i] = c
		default:
			ins[i] = tc.fromBits(start+count, func(j int) uint64 { return bits(j - start) })
			ins[i] = sliceFrom(ins[i], start)
		}
	}
	want, got := tc.makeOut(f.out, m*n), tc.makeOut(f.out, m*n)
	f.ref(o, f.kinds[k], m, n, want, n, ins, lds)
	f.run(o, f.kinds[k], m, n, got, n, ins, lds, stream)
	requireSame(t, want, got, fmt.Sprintf("%s %s %s %s %dx%d stream %v", tc.name, f.name, f.ops[o], f.kinds[k], m, n, stream))
}
