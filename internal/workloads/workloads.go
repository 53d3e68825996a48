// Package workloads defines the broadcast workloads that the benchmarks and
// tools/elembench time, so that both measure exactly the same thing.
package workloads

import (
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/bufplace"
)

// Broadcast is one broadcast workload: dst = a op b under the NUMPY rule.
type Broadcast struct {
	Name string
	Op   elem.Op
	A, B broadcast.Shape
}

// Broadcasts are the broadcast workloads: row (R), column (K),
// channel (T3), outer-product (O) and general (G) broadcasts, and a scalar.
var Broadcasts = []Broadcast{
	{"R", elem.OpAdd, broadcast.Shape{1024, 1024}, broadcast.Shape{1024}},
	{"R-narrow", elem.OpAdd, broadcast.Shape{65536, 64}, broadcast.Shape{64}},
	{"K", elem.OpAdd, broadcast.Shape{1024, 1024}, broadcast.Shape{1024, 1}},
	{"K-narrow", elem.OpAdd, broadcast.Shape{65536, 16}, broadcast.Shape{65536, 1}},
	{"T3", elem.OpMul, broadcast.Shape{256, 256, 3}, broadcast.Shape{3}},
	{"T3-big", elem.OpAdd, broadcast.Shape{1048576, 3}, broadcast.Shape{3}},
	{"O", elem.OpAdd, broadcast.Shape{1024, 1}, broadcast.Shape{1, 1024}},
	{"G4", elem.OpAdd, broadcast.Shape{8, 1, 64, 32}, broadcast.Shape{1, 16, 1, 32}},
	{"G3", elem.OpAdd, broadcast.Shape{64, 1, 256}, broadcast.Shape{128, 1}},
	{"S-16K", elem.OpAdd, broadcast.Shape{16000}, broadcast.Shape{}},
}

// Instance is a workload with its buffers: a, b and dst start 0, 1024 and
// 3072 bytes after page boundaries (see bufplace).
type Instance[T elem.Float] struct {
	Plan       *broadcast.Plan
	Op         elem.Op
	Dst, A, B  []T
	OutLen     int
	BytesMoved int64 // bytes of a, b and dst, each counted once
}

// New plans w and allocates its buffers, filled with ordinary values.
func New[T elem.Float](w Broadcast) (*Instance[T], error) {
	p, err := broadcast.NewPlan(broadcast.RuleNumpy, w.A, w.B)
	if err != nil {
		return nil, err
	}
	na, _ := w.A.Size()
	nb, _ := w.B.Size()
	n := p.OutLen()
	bufs := bufplace.Sized[T]([3]int{na, nb, n})
	a, b := bufs[0], bufs[1]
	for i := range a {
		a[i] = T(i%97) + 1.5
	}
	for i := range b {
		b[i] = T(i%89) + 0.25
	}
	return &Instance[T]{Plan: p, Op: w.Op, Dst: bufs[2], A: a, B: b, OutLen: n,
		BytesMoved: int64(na+nb+n) * int64(unsafe.Sizeof(T(0)))}, nil
}

// Run computes the workload once.
func (x *Instance[T]) Run() error { return broadcast.Run(x.Plan, x.Op, x.Dst, x.A, x.B) }

// Contiguous returns a call of the same op on contiguous operands with the
// workload's output size, the baseline a broadcast should beat (it reads
// more memory), and its bytes moved.
func Contiguous[T elem.Float](op elem.Op, n int) (func(), int64) {
	bufs := bufplace.Three[T](n)
	for i := range bufs[0] {
		bufs[0][i], bufs[1][i] = T(i%97)+1.5, T(i%89)+0.25
	}
	return func() { elem.Apply(op, bufs[2], bufs[0], bufs[1]) }, 3 * int64(n) * int64(unsafe.Sizeof(T(0)))
}
