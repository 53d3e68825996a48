package workloads

import (
	"github.com/simdkit/elem"
	"github.com/simdkit/elem/expr"
	"github.com/simdkit/elem/internal/bufplace"
)

// Expr is one fused-expression workload: an expression over float32
// inputs, at one size.
type Expr struct {
	Name string // "N16M": the expression's letter and the output size
	Text string // the expression, as expr.Parse reads it
	// Rows and Cols are the output shape: Rows x Cols for the dense-layer
	// case (B), a flat Cols otherwise (Rows 1).
	Rows, Cols int
}

// Len is the number of output elements.
func (w Expr) Len() int { return w.Rows * w.Cols }

// Exprs are the workloads of issue 12, each at 16M, 16000 and 1000
// elements: N, normalisation by scalars, (x - m) / s; B, a dense layer's
// bias and ReLU over rows, max(x*w + b, 0); A, a scaled sum of two arrays,
// a*s + b*t.
var Exprs = []Expr{
	{"N16M", textN, 1, 1 << 24}, {"B16M", textB, 16384, 1024}, {"A16M", textA, 1, 1 << 24},
	{"N16000", textN, 1, 16000}, {"B16000", textB, 16, 1000}, {"A16000", textA, 1, 16000},
	{"N1000", textN, 1, 1000}, {"B1000", textB, 8, 125}, {"A1000", textA, 1, 1000},
}

const (
	textN = "(x - m) / s"
	textB = "max(x*w + b, 0)"
	textA = "a*s + b*t"
)

// ExprInstance is a workload with its buffers and its three ways to run:
// fused through expr, op by op through elem's slice and 2-D calls (into
// temporaries allocated once, as a careful program would), and one elem.Add
// of the same output size, the memory-bound floor.
type ExprInstance struct {
	Plan          *expr.Plan[float32]
	Fused, OpByOp func()
	Add           func()
}

// NewExpr builds w's plan and buffers, filled with ordinary values.
func NewExpr(w Expr) (*ExprInstance, error) {
	shapes := map[string][]int{}
	n := w.Len()
	switch w.Text {
	case textB:
		shapes["x"], shapes["w"], shapes["b"] = []int{w.Rows, w.Cols}, []int{w.Cols}, []int{w.Cols}
	case textN:
		shapes["x"] = []int{n}
	default:
		shapes["a"], shapes["b"] = []int{n}, []int{n}
	}
	root, err := expr.Parse[float32](w.Text, shapes)
	if err != nil {
		return nil, err
	}
	p, err := expr.Compile(root)
	if err != nil {
		return nil, err
	}
	bufs := bufplace.Three[float32](n)
	tmp := bufplace.Three[float32](n)
	x, y, dst := bufs[0], bufs[1], bufs[2]
	for i := range x {
		x[i], y[i] = float32(i%97)+1.5, float32(i%89)+0.25
	}
	const s, t = 0.5, 1.75
	in := &ExprInstance{Plan: p, Add: func() { elem.Add(dst, x, y) }}
	run := func(args ...expr.Binding) func() {
		return func() {
			if err := p.Run(dst, args...); err != nil {
				panic(err)
			}
		}
	}
	switch w.Text {
	case textN:
		in.Fused = run(expr.Array("x", x), expr.Value[float32]("m", s), expr.Value[float32]("s", t))
		in.OpByOp = func() {
			elem.SubScalar(tmp[0], x, s)
			elem.DivScalar(dst, tmp[0], t)
		}
	case textB:
		wr, br := y[:w.Cols], tmp[2][:w.Cols]
		copy(br, y[w.Cols:])
		m, c := w.Rows, w.Cols
		in.Fused = run(expr.Array("x", x), expr.Array("w", wr), expr.Array("b", br))
		in.OpByOp = func() {
			elem.Apply2D(elem.OpMul, m, c, tmp[0], c, x, c, 1, wr, 0, 1)
			elem.Apply2D(elem.OpAdd, m, c, tmp[0], c, tmp[0], c, 1, br, 0, 1)
			elem.MaxScalar(dst, tmp[0], 0)
		}
	default:
		in.Fused = run(expr.Array("a", x), expr.Value[float32]("s", s), expr.Array("b", y), expr.Value[float32]("t", t))
		in.OpByOp = func() {
			elem.MulScalar(tmp[0], x, s)
			elem.MulScalar(tmp[1], y, t)
			elem.Add(dst, tmp[0], tmp[1])
		}
	}
	return in, nil
}
