package expr_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

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
		args := []expr.Arg[float32]{expr.Array("x", make([]float32, 8))}
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
