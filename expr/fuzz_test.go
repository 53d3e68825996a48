package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/testkit"
)

// FuzzExpr parses arbitrary text over inputs of broadcastable shapes (x of
// (3,40), w a row, c a column, any other name a scalar) and, for what
// parses and compiles, checks every bit of Run against the op-by-op
// reference, with a block size the input chooses; and that String parses
// back to the same expression.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{
		"(x - m) / s", "max(x*w + b, 0)", "a*s + b*t", "where(x < c, sqrt(x), fma(x, w, c))",
		"clamp(-x, w, c) * roundeven(x / 3)", "min(abs(x), floor(ceil(trunc(round(w)))))",
	} {
		f.Add(s, uint64(1), uint8(7))
	}
	shapes := map[string][]int{"x": {3, 40}, "w": {40}, "c": {3, 1}}
	f.Fuzz(func(t *testing.T, src string, seed uint64, block uint8) {
		root, err := Parse[float32](src, shapes)
		if err != nil {
			return
		}
		again, err := Parse[float32](root.String(), shapes)
		if err != nil || again.String() != root.String() {
			t.Fatalf("%q: String %q does not parse back: %v", src, root.String(), err)
		}
		p, err := compile(root, int(block))
		if err != nil {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		e := env[float32]{arrays: map[string][]float32{}, scalars: map[string]float32{}}
		for _, name := range p.Inputs() {
			size, _ := broadcast.Shape(shapes[name]).Size()
			e.arrays[name] = testkit.RandomData[float32](rng, size)
		}
		for _, name := range p.Scalars() {
			e.scalars[name] = testkit.RandomData[float32](rng, 1)[0]
		}
		got := make([]float32, p.Len())
		if err := p.Run(got, e.args(p)...); err != nil {
			t.Fatal(err)
		}
		testkit.RequireSameBits(t, reference(root.n, p.Shape(), e), got, src)
	})
}
