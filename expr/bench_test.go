package expr_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/expr"
	"github.com/simdkit/elem/internal/workloads"
)

// BenchmarkExpr times each workload of issue 12 three ways: fused, op by
// op through elem, and one elem.Add of the same output size.
func BenchmarkExpr(b *testing.B) {
	for _, w := range workloads.Exprs {
		in, err := workloads.NewExpr(w)
		if err != nil {
			b.Fatal(err)
		}
		for _, way := range []struct {
			name string
			run  func()
		}{{"fused", in.Fused}, {"opbyop", in.OpByOp}, {"add", in.Add}} {
			b.Run(w.Name+"/"+way.name, func(b *testing.B) {
				b.SetBytes(int64(w.Len()) * 4)
				for b.Loop() {
					way.run()
				}
			})
		}
	}
}

// BenchmarkDeep times what grows with an expression's depth, each at two
// depths n and 4n, so that a cost linear in the depth shows as a ratio of
// 4: Parse of text nested n deep, Parse refusing text nested past
// MaxNesting (which costs the same however deep), and String and Compile
// of a chain of n Adds.
func BenchmarkDeep(b *testing.B) {
	for _, n := range []int{expr.MaxNesting / 4, expr.MaxNesting} {
		src := strings.Repeat("(", n) + "x" + strings.Repeat(")", n)
		b.Run(fmt.Sprintf("Parse/nested=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := expr.Parse[float32](src, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, n := range []int{100_000, 400_000} {
		src := strings.Repeat("(", n) + "x" + strings.Repeat(")", n)
		b.Run(fmt.Sprintf("ParseRefused/nested=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := expr.Parse[float32](src, nil); err == nil {
					b.Fatal("parsed")
				}
			}
		})
	}
	for _, n := range []int{25_000, 100_000} {
		x := expr.Input[float32]("x", 8)
		chain := x
		for range n {
			chain = expr.Add(chain, x)
		}
		b.Run(fmt.Sprintf("String/chain=%d", n), func(b *testing.B) {
			for b.Loop() {
				_ = chain.String()
			}
		})
		b.Run(fmt.Sprintf("Compile/chain=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := expr.Compile(chain); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkManyScalars times Compile and the first Run (a new plan's, whose
// scratch knows no names yet) of x plus n scalars, at n and 4n.
func BenchmarkManyScalars(b *testing.B) {
	for _, n := range []int{10_000, 40_000} {
		sum := expr.Input[float32]("x", 8)
		args := []expr.Binding{expr.Array("x", make([]float32, 8))}
		for i := range n {
			name := "s" + strconv.Itoa(i)
			sum = expr.Add(sum, expr.Scalar[float32](name))
			args = append(args, expr.Value[float32](name, 1))
		}
		dst := make([]float32, 8)
		b.Run(fmt.Sprintf("scalars=%d", n), func(b *testing.B) {
			for b.Loop() {
				p, err := expr.Compile(sum)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Run(dst, args...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// shortRowCase is an expression over channels-last or otherwise short-row
// float32 data, with the same ops one at a time through broadcast.Apply
// (into a temporary the size of the output) to hold it against.
type shortRowCase struct {
	name   string
	text   string
	shapes map[string][]int
	// opByOp runs the expression through broadcast.Apply, one call per op.
	opByOp func(dst, tmp []float32, in map[string][]float32) error
}

// rowsCases are issue 22's channels-last cases: a row added to 307200 rows
// of 3, 4, 8 and 16 columns, a column added to rows of 3, the outer form
// (N,1) + (1,3), and (x - mean) / std over a (480, 640, 3) image.
func rowsCases() []shortRowCase {
	const rows = 307200
	var cases []shortRowCase
	for _, cols := range []int{3, 4, 8, 16} {
		x, r := broadcast.Shape{rows, cols}, broadcast.Shape{cols}
		cases = append(cases, shortRowCase{
			name: fmt.Sprintf("x+row/cols=%d", cols), text: "x + r",
			shapes: map[string][]int{"x": x, "r": r},
			opByOp: func(dst, _ []float32, in map[string][]float32) error {
				return broadcast.Apply(elem.OpAdd, dst, in["x"], x, in["r"], r)
			},
		})
	}
	x, c := broadcast.Shape{rows, 3}, broadcast.Shape{rows, 1}
	cases = append(cases, shortRowCase{
		name: "x+col/cols=3", text: "x + c", shapes: map[string][]int{"x": x, "c": c},
		opByOp: func(dst, _ []float32, in map[string][]float32) error {
			return broadcast.Apply(elem.OpAdd, dst, in["x"], x, in["c"], c)
		},
	})
	r := broadcast.Shape{1, 3}
	cases = append(cases, shortRowCase{
		name: "col+row/cols=3", text: "c + r", shapes: map[string][]int{"c": c, "r": r},
		opByOp: func(dst, _ []float32, in map[string][]float32) error {
			return broadcast.Apply(elem.OpAdd, dst, in["c"], c, in["r"], r)
		},
	})
	img, ch := broadcast.Shape{480, 640, 3}, broadcast.Shape{3}
	cases = append(cases, shortRowCase{
		name: "normalize/480x640x3", text: "(x - mean) / std",
		shapes: map[string][]int{"x": img, "mean": ch, "std": ch},
		opByOp: func(dst, tmp []float32, in map[string][]float32) error {
			if err := broadcast.Apply(elem.OpSub, tmp, in["x"], img, in["mean"], ch); err != nil {
				return err
			}
			return broadcast.Apply(elem.OpDiv, dst, tmp, img, in["std"], ch)
		},
	})
	return cases
}

// BenchmarkShortRows times issue 22's channels-last cases (rowsCases)
// through expr and op by op through broadcast.Apply.
func BenchmarkShortRows(b *testing.B) {
	for _, c := range rowsCases() {
		root, err := expr.Parse[float32](c.text, c.shapes)
		if err != nil {
			b.Fatal(err)
		}
		p, err := expr.Compile(root)
		if err != nil {
			b.Fatal(err)
		}
		in := map[string][]float32{}
		var args []expr.Binding
		for _, name := range p.Inputs() {
			size, _ := broadcast.Shape(c.shapes[name]).Size()
			data := make([]float32, size)
			for i := range data {
				data[i] = float32(i%97) + 1.5
			}
			in[name] = data
			args = append(args, expr.Array(name, data))
		}
		dst, tmp := make([]float32, p.Len()), make([]float32, p.Len())
		for _, way := range []struct {
			name string
			run  func() error
		}{
			{"expr", func() error { return p.Run(dst, args...) }},
			{"broadcast", func() error { return c.opByOp(dst, tmp, in) }},
		} {
			b.Run(c.name+"/"+way.name, func(b *testing.B) {
				b.SetBytes(int64(p.Len()) * 4)
				for b.Loop() {
					if err := way.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkImagePipeline times clamp(round((x - m) / s * 255), 0, 255) from
// uint8 pixels (480, 640, 3) to uint8, m and s float32 per channel: one plan
// with its conversions, against the same ops in separate passes of elem
// calls (m and s expanded to the image's size beforehand, untimed), and
// against a float32 plan between two conversion passes.
func BenchmarkImagePipeline(b *testing.B) {
	const h, w, c = 480, 640, 3
	n := h * w * c
	x, out := make([]uint8, n), make([]uint8, n)
	for i := range x {
		x[i] = uint8(i * 37)
	}
	m, s := []float32{0.485 * 255, 0.456 * 255, 0.406 * 255}, []float32{0.229 * 255, 0.224 * 255, 0.225 * 255}
	p, err := expr.Compile(imagePipeline(h, w, c))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("plan", func(b *testing.B) {
		b.SetBytes(int64(2 * n))
		for b.Loop() {
			if err := p.Run(out, expr.Array("x", x), expr.Array("m", m), expr.Array("s", s)); err != nil {
				b.Fatal(err)
			}
		}
	})
	mm, ss, tmp := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range mm {
		mm[i], ss[i] = m[i%c], s[i%c]
	}
	b.Run("passes", func(b *testing.B) {
		b.SetBytes(int64(2 * n))
		for b.Loop() {
			elem.Convert(tmp, x)
			elem.Sub(tmp, tmp, mm)
			elem.Div(tmp, tmp, ss)
			elem.MulScalar(tmp, tmp, 255)
			elem.Round(tmp, tmp)
			elem.Clamp(tmp, tmp, 0, 255)
			elem.Convert(out, tmp)
		}
	})
	// As before conversions were nodes: a pass of its own for each.
	xf := expr.Input[float32]("x", h, w, c)
	y := expr.Mul(expr.Div(expr.Sub(xf, expr.Input[float32]("m", c)), expr.Input[float32]("s", c)), expr.Const[float32](255))
	pf, err := expr.Compile(expr.Clamp(expr.Round(y), expr.Const[float32](0), expr.Const[float32](255)))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("convert-plan-convert", func(b *testing.B) {
		b.SetBytes(int64(2 * n))
		for b.Loop() {
			elem.Convert(tmp, x)
			if err := pf.Run(tmp, expr.Array("x", tmp), expr.Array("m", m), expr.Array("s", s)); err != nil {
				b.Fatal(err)
			}
			elem.Convert(out, tmp)
		}
	})
}

// imagePipeline is clamp(round((x - m) / s * 255), 0, 255) of uint8 pixels
// x of shape (h, w, c) into uint8, m and s float32 per channel.
func imagePipeline(h, w, c int) expr.Node[uint8] {
	x := expr.Convert[float32](expr.Input[uint8]("x", h, w, c))
	m, s := expr.Input[float32]("m", c), expr.Input[float32]("s", c)
	y := expr.Mul(expr.Div(expr.Sub(x, m), s), expr.Const[float32](255))
	return expr.Convert[uint8](expr.Clamp(expr.Round(y), expr.Const[float32](0), expr.Const[float32](255)))
}
