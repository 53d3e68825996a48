package broadcast_test

import (
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/bufplace"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/workloads"
)

// BenchmarkBroadcast times every workload of package workloads through a
// plan, for every implementation, next to the contiguous op of the same
// output size ("contiguous"), which reads more memory and so bounds what a
// broadcast should cost. Buffers: a, b, dst at 0, 1024, 3072 bytes after page
// boundaries. Report ns/op divided by the output size as ns/elem.
func BenchmarkBroadcast(b *testing.B) {
	defer kernel.Restore(kernel.Save())
	for _, w := range workloads.Broadcasts {
		x, err := workloads.New[float32](w)
		if err != nil {
			b.Fatal(err)
		}
		contiguous, contiguousBytes := workloads.Contiguous[float32](w.Op, x.OutLen)
		for _, impl := range elem.Implementations() {
			b.Run(w.Name+"/"+impl, func(b *testing.B) {
				if err := elem.SetImplementation(impl); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(x.BytesMoved)
				for b.Loop() {
					if err := x.Run(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(x.OutLen), "ns/elem")
			})
			b.Run(w.Name+"/contiguous/"+impl, func(b *testing.B) {
				if err := elem.SetImplementation(impl); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(contiguousBytes)
				for b.Loop() {
					contiguous()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(x.OutLen), "ns/elem")
			})
		}
	}
}

// BenchmarkApplySmall is a one-shot NUMPY Apply of two 4-D shapes with 8
// output elements, planning included.
func BenchmarkApplySmall(b *testing.B) {
	a, y, dst := make([]float32, 4), make([]float32, 2), make([]float32, 8)
	as, bs := broadcast.Shape{2, 1, 2, 1}, broadcast.Shape{1, 2, 1, 1}
	for b.Loop() {
		if err := broadcast.Apply(elem.OpAdd, dst, a, as, y, bs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBroadcastParallel times T3-big and K-narrow through RunParallel
// at 1, 2 and GOMAXPROCS workers.
func BenchmarkBroadcastParallel(b *testing.B) {
	for _, w := range workloads.Broadcasts {
		if w.Name != "T3-big" && w.Name != "K-narrow" {
			continue
		}
		x, err := workloads.New[float32](w)
		if err != nil {
			b.Fatal(err)
		}
		for _, workers := range []int{1, 2, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%s/workers=%d", w.Name, workers), func(b *testing.B) {
				b.SetBytes(x.BytesMoved)
				for b.Loop() {
					if err := broadcast.RunParallel(x.Plan, workers, x.Op, x.Dst, x.A, x.B); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(x.OutLen), "ns/elem")
			})
		}
	}
}

// BenchmarkViews times the view workloads of package workloads next to
// their contiguous baselines ("baseline"), in ns per output element, with
// the implementation in effect.
func BenchmarkViews(b *testing.B) {
	for _, w := range workloads.Views {
		view, baseline, n := w.New()
		b.Run(w.Name, func(b *testing.B) {
			for b.Loop() {
				if err := view(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
		})
		b.Run(w.Name+"/baseline", func(b *testing.B) {
			for b.Loop() {
				baseline()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
		})
	}
}

// BenchmarkColumnView times a column of 1024 float32 scaled in place as a
// view ("view") beside the plain Go loop over the same column ("loop"),
// for a matrix of 1024 columns (every element in the same few cache sets)
// and of 1025, in ns per element.
func BenchmarkColumnView(b *testing.B) {
	const n = 1024
	for _, stride := range []int{1024, 1025} {
		data := make([]float32, n*stride)
		for i := range data {
			data[i] = 1
		}
		s := float32(1.0000001)
		col := broadcast.View[float32]{Data: data[3 : 3+(n-1)*stride+1], Shape: broadcast.Shape{n}, Strides: []int{stride}}
		scale := broadcast.ViewOf([]float32{s}, broadcast.Shape{})
		run := func(what string, f func()) {
			b.Run(fmt.Sprintf("stride%d/%s", stride, what), func(b *testing.B) {
				for b.Loop() {
					f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/elem")
			})
		}
		run("view", func() {
			if err := broadcast.ApplyView(elem.OpMul, col, col, scale); err != nil {
				b.Fatal(err)
			}
		})
		run("loop", func() {
			for i := range n {
				data[3+i*stride] *= s
			}
		})
	}
}

// BenchmarkCopyView times CopyView on the layout changes of image and
// tensor code, beside the plain Go loops that a program writes for them
// ("loop" in dst's order, "loop-src" in src's) and a contiguous copy of the
// same bytes ("copy"): HWC to CHW images of 480x640 and 224x224 RGB pixels (uint8
// and float32), an NCHW to NHWC tensor of 64 channels of 56x56 (float32),
// and a 1024x1024 float32 matrix transposed. Buffers: src and dst at 0 and
// 3072 bytes after page boundaries. ns/B is per byte of dst.
func BenchmarkCopyView(b *testing.B) {
	benchmarkCopyView[uint8](b, "HWC-CHW/480x640x3/uint8", 480*640, 3)
	benchmarkCopyView[float32](b, "HWC-CHW/480x640x3/float32", 480*640, 3)
	benchmarkCopyView[uint8](b, "HWC-CHW/224x224x3/uint8", 224*224, 3)
	benchmarkCopyView[float32](b, "HWC-CHW/224x224x3/float32", 224*224, 3)
	benchmarkCopyView[float32](b, "NCHW-NHWC/1x64x56x56/float32", 64, 56*56)
	benchmarkCopyView[float32](b, "transpose/1024x1024/float32", 1024, 1024)
}

// benchmarkCopyView times the transposition of an m x n matrix (m pixels
// of n channels to n planes of m values, n channels of m pixels to m
// pixels of n channels, or a matrix) as CopyView, the plain loop and a
// contiguous copy.
func benchmarkCopyView[T elem.Number](b *testing.B, name string, m, n int) {
	bufs := bufplace.Three[T](m * n)
	src, dst := bufs[0], bufs[2]
	for i := range src {
		src[i] = T(i % 251)
	}
	view := broadcast.ViewOf(src, broadcast.Shape{m, n}).Transposed()
	out := broadcast.ViewOf(dst, broadcast.Shape{n, m})
	bytes := int64(len(dst)) * int64(unsafe.Sizeof(T(0)))
	run := func(sub string, f func()) {
		b.Run(name+"/"+sub, func(b *testing.B) {
			b.SetBytes(bytes)
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bytes), "ns/B")
		})
	}
	run("view", func() {
		if err := broadcast.CopyView(out, view); err != nil {
			b.Fatal(err)
		}
	})
	run("loop", func() {
		for r := range n {
			row := dst[r*m : r*m+m]
			for j := range row {
				row[j] = src[j*n+r]
			}
		}
	})
	run("loop-src", func() {
		for j := range m {
			px := src[j*n : j*n+n]
			for r, v := range px {
				dst[r*m+j] = v
			}
		}
	})
	run("copy", func() { copy(dst, src) })
}
