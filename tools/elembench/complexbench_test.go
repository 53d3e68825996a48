package main

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/cmplxs"

	"github.com/simdkit/elem"
)

// BenchmarkComplex times elem's complex calls beside the plain Go loops
// and gonum's cmplxs at n = 16000: the table of issue 27 (NumPy's side is
// tools/peers/complex.py).
//
//	go test -run '^$' -bench Complex -count 6
func BenchmarkComplex(b *testing.B) {
	const n = 16000
	rng := rand.New(rand.NewPCG(1, 2))
	a64, b64, d64 := make([]complex64, n), make([]complex64, n), make([]complex64, n)
	a128, b128, d128 := make([]complex128, n), make([]complex128, n), make([]complex128, n)
	for i := range a128 {
		a128[i] = complex(rng.NormFloat64(), rng.NormFloat64())
		b128[i] = complex(rng.NormFloat64(), rng.NormFloat64())
		a64[i], b64[i] = complex64(a128[i]), complex64(b128[i])
	}
	f32, f64 := make([]float32, n), make([]float64, n)
	run := func(name string, f func()) {
		b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
	}
	run("c64-Mul-elem", func() { elem.Mul(d64, a64, b64) })
	run("c64-Mul-loop", func() {
		for i := range d64 {
			d64[i] = a64[i] * b64[i]
		}
	})
	run("c128-Mul-elem", func() { elem.Mul(d128, a128, b128) })
	run("c128-Mul-loop", func() {
		for i := range d128 {
			d128[i] = a128[i] * b128[i]
		}
	})
	run("c64-Magnitude-elem", func() { elem.Magnitude(f32, a64) })
	run("c64-Magnitude-cmplx.Abs", func() {
		for i, x := range a64 {
			f32[i] = float32(cmplx.Abs(complex128(x)))
		}
	})
	run("c128-Magnitude-elem", func() { elem.Magnitude(f64, a128) })
	run("c128-Magnitude-gonum", func() { cmplxs.Abs(f64, a128) })
	run("c64-Phase-elem", func() { elem.Phase(f32, a64) })
	run("c128-Phase-elem", func() { elem.Phase(f64, a128) })
	run("c128-Phase-cmplx.Phase", func() {
		for i, x := range a128 {
			f64[i] = cmplx.Phase(x)
		}
	})
	var sink complex128
	run("c128-DotConj-elem", func() { sink += elem.DotConj(b128, a128) })
	run("c128-Dot-gonum", func() { sink += cmplxs.Dot(a128, b128) })
	run("c64-Dot-elem", func() { sink += complex128(elem.Dot(a64, b64)) })
	run("c64-Dot-loop", func() {
		var s complex64
		for i := range a64 {
			s += a64[i] * b64[i]
		}
		sink += complex128(s)
	})
	_ = sink
}
