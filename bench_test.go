package elem

import (
	"flag"
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/simdkit/elem/internal/bufplace"
	"github.com/simdkit/elem/internal/kernel"
)

var benchHuge = flag.Bool("elem.huge", false, "also benchmark n = 16777216 (DRAM-sized)")

func benchSizes() []int {
	sizes := []int{8, 64, 1000, 16000, 262144}
	if *benchHuge {
		sizes = append(sizes, 16777216)
	}
	return sizes
}

// BenchmarkKernel times every named call of every op on every element type
// it is defined on (BenchmarkKernel/op/type/kind/n=N/impl, kind as in the
// registry: vv, vs, sv for a scalar on either side, v, vvv, vss, ...), for
// every implementation forced, for "auto", the default choice by size, and
// for "loop", the generic row loop: the plain Go expression of the op in a
// loop, as a user would write it. Buffers: the
// inputs start 0, 1024 and 2048 bytes after a page boundary, dst 3072 bytes
// after one (package bufplace).
func BenchmarkKernel(b *testing.B) {
	benchCalls[float32](b, namedCalls[float32]())
	benchCalls[float64](b, namedCalls[float64]())
	benchCalls[int8](b, intNamedCalls[int8]())
	benchCalls[int16](b, intNamedCalls[int16]())
	benchCalls[int32](b, intNamedCalls[int32]())
	benchCalls[int64](b, intNamedCalls[int64]())
	benchCalls[uint8](b, intNamedCalls[uint8]())
	benchCalls[uint16](b, intNamedCalls[uint16]())
	benchCalls[uint32](b, intNamedCalls[uint32]())
	benchCalls[uint64](b, intNamedCalls[uint64]())
}

func benchCalls[T Number](b *testing.B, calls []namedCall) {
	typ := fmt.Sprintf("%T", T(0))
	for _, c := range calls {
		b.Run(c.op+"/"+typ+"/"+c.kind, func(b *testing.B) {
			benchSized(b, func(n int) (run, loop func(), moved int64) {
				ins, dst, moved := benchOperands[T](c, n)
				return func() { c.run(dst, ins) }, func() { c.ref(n, dst, ins) }, moved
			})
		})
	}
}

// benchSized times, at every benchmark size, the plain loop and then the
// call under every implementation and the automatic choice.
func benchSized(b *testing.B, setup func(n int) (run, loop func(), moved int64)) {
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			run, loop, moved := setup(n)
			b.Run("loop", func(b *testing.B) {
				b.SetBytes(moved)
				for b.Loop() {
					loop()
				}
			})
			defer kernel.Restore(kernel.Save())
			for _, impl := range append(Implementations(), Auto) {
				b.Run(impl, func(b *testing.B) {
					if err := SetImplementation(impl); err != nil {
						b.Fatal(err)
					}
					b.SetBytes(moved)
					for b.Loop() {
						run()
					}
				})
			}
		})
	}
}

// benchOperands places a call's operands, filled with ordinary values, and
// returns them with the bytes a call reads and writes.
func benchOperands[T Number](c namedCall, n int) (ins []any, dst any, moved int64) {
	size := map[string]int{"T": int(unsafe.Sizeof(T(0))), "bool": 1, "uint": int(unsafe.Sizeof(uint(0)))}
	var lengths []int
	for i, typ := range c.inputs {
		if c.vector[i] {
			lengths = append(lengths, n*size[typ])
		} else {
			lengths = append(lengths, size[typ])
		}
	}
	lengths = append(lengths, n*size[c.out])
	bufs := bufplace.Operands(lengths...)
	for i, typ := range append(append([]string(nil), c.inputs...), c.out) {
		var x any
		switch typ {
		case "bool":
			v := bufplace.As[bool](bufs[i])
			for j := range v {
				v[j] = j%3 == 0
			}
			x = v
		case "uint":
			v := bufplace.As[uint](bufs[i])
			for j := range v {
				v[j] = 3 // a shift count
			}
			x = v
		default:
			v := bufplace.As[T](bufs[i])
			for j := range v {
				v[j] = T(j%97) + T(3)/2 // written, so that no page is the shared zero page
			}
			x = v
		}
		if i < len(c.inputs) {
			ins = append(ins, x)
		} else {
			dst = x
		}
		if i == len(c.inputs) || i < len(c.vector) && c.vector[i] {
			moved += int64(len(bufs[i]))
		}
	}
	return ins, dst, moved
}

// BenchmarkConvert times Convert between the pairs that take a type into and
// out of the float kernels (BenchmarkConvert/from->to/n=N/impl) against the
// plain Go conversion loop.
func BenchmarkConvert(b *testing.B) {
	benchConvert[float32, int32](b)
	benchConvert[int32, float32](b)
	benchConvert[float32, uint8](b)
	benchConvert[uint8, float32](b)
	benchConvert[float32, int16](b)
	benchConvert[int16, float32](b)
	benchConvert[float64, float32](b)
	benchConvert[float32, float64](b)
	benchConvert[float64, int32](b)
	benchConvert[float64, int64](b)
	benchConvert[int64, float64](b)
}

func benchConvert[D, S Number](b *testing.B) {
	b.Run(fmt.Sprintf("%T->%T", S(0), D(0)), func(b *testing.B) {
		benchSized(b, func(n int) (run, loop func(), moved int64) {
			bufs := bufplace.Operands(n*int(unsafe.Sizeof(S(0))), n*int(unsafe.Sizeof(D(0))))
			src, dst := bufplace.As[S](bufs[0]), bufplace.As[D](bufs[1])
			for j := range src {
				src[j], dst[j] = S(j%97)+S(3)/2, 1
			}
			loop = func() {
				for i := range dst {
					dst[i] = D(src[i])
				}
			}
			return func() { Convert(dst, src) }, loop, int64(len(bufs[0]) + len(bufs[1]))
		})
	})
}

// BenchmarkAdd compares the public calls on float32s, the named Add and the
// op-valued Apply, with the same loop written inline in the caller, the
// plain Go a user would write, at the sizes: at n = 8 a call's
// overhead shows most, at n = 64 and 1000 the kernels' short paths.
func BenchmarkAdd(b *testing.B) {
	for _, n := range []int{8, 64, 1000, 16000, 262144} {
		bufs := bufplace.Three[float32](n)
		a, y, dst := bufs[0], bufs[1], bufs[2]
		for i := range a {
			a[i], y[i], dst[i] = float32(i%97)+1.5, float32(i%89)+0.25, 1
		}
		b.Run(fmt.Sprintf("n=%d/loop", n), func(b *testing.B) {
			for b.Loop() {
				for i := range dst {
					dst[i] = a[i] + y[i]
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/Add", n), func(b *testing.B) {
			for b.Loop() {
				Add(dst, a, y)
			}
		})
		b.Run(fmt.Sprintf("n=%d/Apply", n), func(b *testing.B) {
			for b.Loop() {
				Apply(OpAdd, dst, a, y)
			}
		})
	}
}

// BenchmarkStream compares ordinary and non-temporal stores from L2-sized to
// DRAM-sized outputs (BenchmarkStream/call/n=N/impl/cached and .../stream),
// for a call of every family whose kernels have streaming forms and for
// the compute-bound ops (div, sqrt), under each assembly implementation:
// the measurement behind the streaming threshold and behind which kernels
// have streaming twins. It runs with -elem.huge only.
func BenchmarkStream(b *testing.B) {
	if !*benchHuge {
		b.Skip("needs -elem.huge")
	}
	if !kernel.HasStreaming {
		b.Skip("no streaming kernels on this architecture")
	}
	saved := kernel.Save()
	defer kernel.Restore(saved)
	type call struct {
		name   string
		arrays int // dst and the vector inputs, for the bytes moved
		run    func(dst, a, y []float32, ia, iy, idst []int32, cond []bool)
	}
	calls := []call{
		{"add/vv", 3, func(dst, a, y []float32, _, _, _ []int32, _ []bool) { Add(dst, a, y) }},
		{"add/vs", 2, func(dst, a, _ []float32, _, _, _ []int32, _ []bool) { AddScalar(dst, a, 1.5) }},
		{"div/vv", 3, func(dst, a, y []float32, _, _, _ []int32, _ []bool) { Div(dst, a, y) }},
		{"sqrt/v", 2, func(dst, a, _ []float32, _, _, _ []int32, _ []bool) { Sqrt(dst, a) }},
		{"fma/vsv", 3, func(dst, a, y []float32, _, _, _ []int32, _ []bool) { MulScalarAdd(dst, a, 0.5, y) }},
		{"select/vvv", 3, func(dst, a, y []float32, _, _, _ []int32, cond []bool) { Select(dst, cond, a, y) }},
		{"and/vv/int32", 3, func(_, _, _ []float32, ia, iy, idst []int32, _ []bool) { And(idst, ia, iy) }},
		{"shl/vs/int32", 2, func(_, _, _ []float32, ia, _, idst []int32, _ []bool) { Shl(idst, ia, 3) }},
	}
	for _, n := range []int{1 << 18, 1 << 20, 1 << 22, 1 << 24} {
		bufs := bufplace.Three[float32](n)
		a, y, dst := bufs[0], bufs[1], bufs[2]
		ints := bufplace.Three[int32](n)
		cond := make([]bool, n)
		for i := range a {
			// Written, so that no page is the kernel's shared zero page.
			a[i], y[i], dst[i] = float32(i%97)+1.5, float32(i%89)+0.25, 1
			ints[0][i], ints[1][i], ints[2][i] = int32(i), int32(i%89), 1
			cond[i] = i%3 == 0
		}
		for _, c := range calls {
			for _, impl := range kernel.Available()[1:] {
				for _, mode := range []struct {
					name     string
					minBytes int
				}{{"cached", math.MaxInt}, {"stream", 0}} {
					b.Run(fmt.Sprintf("%s/n=%d/%s/%s", c.name, n, impl, mode.name), func(b *testing.B) {
						kernel.Use(impl, "BenchmarkStream")
						kernel.SetStreamMinBytes(mode.minBytes)
						b.SetBytes(int64(4 * n * c.arrays))
						for b.Loop() {
							c.run(dst, a, y, ints[0], ints[1], ints[2], cond)
						}
					})
				}
			}
		}
	}
}
