package expr_test

import (
	"testing"

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
