package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"

	"github.com/simdkit/elem"
)

// BenchmarkHalf times the half-precision conversions and products of
// elem beside x448/float16's conversion loops and a copy of the same
// bytes, at n = 16000 (in cache) and 16M (memory): the table of issue 26.
//
//	go test -run '^$' -bench Half -count 6
func BenchmarkHalf(b *testing.B) {
	for _, n := range []int{16000, 16 << 20} {
		rng := rand.New(rand.NewPCG(1, 2))
		f32 := make([]float32, n)
		for i := range f32 {
			f32[i] = float32(rng.NormFloat64())
		}
		f16, bf16, x448 := make([]elem.Float16, n), make([]elem.BFloat16, n), make([]float16.Float16, n)
		elem.Convert(f16, f32)
		elem.Convert(bf16, f32)
		for i, x := range f32 {
			x448[i] = float16.Fromfloat32(x)
		}
		back, other := make([]float32, n), make([]float32, n)
		copy(other, f32)
		f16b := make([]elem.Float16, n)
		elem.Convert(f16b, other)
		run := func(name string, bytes int, f func()) {
			b.Run(fmt.Sprintf("n=%d/%s", n, name), func(b *testing.B) {
				b.SetBytes(int64(bytes))
				for b.Loop() {
					f()
				}
			})
		}
		run("elem-f32-to-f16", 6*n, func() { elem.Convert(f16, f32) })
		run("x448-f32-to-f16", 6*n, func() {
			for i, x := range f32 {
				x448[i] = float16.Fromfloat32(x)
			}
		})
		run("elem-f16-to-f32", 6*n, func() { elem.Convert(back, f16) })
		run("x448-f16-to-f32", 6*n, func() {
			for i, h := range x448 {
				back[i] = h.Float32()
			}
		})
		run("elem-f32-to-bf16", 6*n, func() { elem.Convert(bf16, f32) })
		run("elem-bf16-to-f32", 6*n, func() { elem.Convert(back, bf16) })
		run("copy-f32", 8*n, func() { copy(back, f32) })
		var sink float32
		run("elem-DotHalf", 4*n, func() { sink += elem.DotHalf(f16, f16b) })
		run("elem-Dot-f32", 8*n, func() { sink += elem.Dot(f32, other) })
		run("elem-ScaleHalf", 6*n, func() { elem.ScaleHalf(back, f16, 0.5) })
		_ = sink
	}
}
