package expr

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// opByOp evaluates n one op at a time through broadcast's calls (Apply,
// ApplyUnary, ApplyTernary, Select), each into a temporary of its
// broadcast shape: the program an expression replaces, whose bits it must
// give. It returns the value and its shape.
func opByOp[T elem.Number](t *testing.T, n *node[T], e env[T]) ([]T, broadcast.Shape) {
	t.Helper()
	switch n.kind {
	case kindInput:
		return e.arrays[n.name], n.shape
	case kindScalar:
		return []T{e.scalars[n.name]}, broadcast.Shape{}
	case kindConst:
		return []T{n.val}, broadcast.Shape{}
	case kindBinary:
		a, as := opByOp(t, n.args[0], e)
		b, bs := opByOp(t, n.args[1], e)
		out, dst := alloc[T](t, as, bs)
		require.NoError(t, broadcast.Apply(elem.Op(n.op), dst, a, as, b, bs))
		return dst, out
	}
	switch n := any(n).(type) {
	case *node[float32]:
		dst, out := opByOpFloat(t, n, any(e).(env[float32]))
		return any(dst).([]T), out
	case *node[float64]:
		dst, out := opByOpFloat(t, n, any(e).(env[float64]))
		return any(dst).([]T), out
	}
	panic("a float op on integers")
}

// opByOpFloat is opByOp for the ops that exist on floats only.
func opByOpFloat[T elem.Float](t *testing.T, n *node[T], e env[T]) ([]T, broadcast.Shape) {
	t.Helper()
	arg := func(i int) ([]T, broadcast.Shape) { return opByOp(t, n.args[i], e) }
	switch n.kind {
	case kindUnary:
		a, as := arg(0)
		dst := make([]T, len(a))
		require.NoError(t, broadcast.ApplyUnary(elem.UnaryOp(n.op), dst, as, a, as))
		return dst, as
	case kindTernary:
		a, as := arg(0)
		b, bs := arg(1)
		c, cs := arg(2)
		out, dst := alloc[T](t, as, bs, cs)
		require.NoError(t, broadcast.ApplyTernary(elem.TernaryOp(n.op), dst, a, as, b, bs, c, cs))
		return dst, out
	}
	// Where: the comparison over its operands broadcast to its shape.
	c := n.args[0]
	x, xs := opByOp(t, c.args[0], e)
	y, ys := opByOp(t, c.args[1], e)
	cs, xw := alloc[T](t, xs, ys)
	yw := make([]T, len(xw))
	_, err := broadcast.To(xw, x, xs, cs)
	require.NoError(t, err)
	_, err = broadcast.To(yw, y, ys, cs)
	require.NoError(t, err)
	cond := make([]bool, len(xw))
	elem.Compare(elem.CompareOp(c.op), cond, xw, yw)
	a, as := arg(1)
	b, bs := arg(2)
	out, dst := alloc[T](t, cs, as, bs)
	require.NoError(t, broadcast.Select(dst, cond, cs, a, as, b, bs))
	return dst, out
}

// alloc returns the broadcast of shapes and a temporary of that shape.
func alloc[T elem.Number](t *testing.T, shapes ...broadcast.Shape) (broadcast.Shape, []T) {
	out, err := broadcast.Numpy(shapes...)
	require.NoError(t, err)
	size, _ := out.Size()
	return out, make([]T, size)
}

// shortRowCase is an expression over inputs of the given shapes.
type shortRowCase struct {
	text   string
	shapes map[string][]int
}

// shortRowCases are expressions over short rows of every length about the
// tile's alignments (1 to 17 columns), against repeated rows (tiled, with
// one row for the whole output or one per outer index), columns, the outer
// form (N,1) x (1,M), and inputs that repeat along a middle axis.
func shortRowCases(rows int) []shortRowCase {
	var cases []shortRowCase
	add := func(text string, shapes map[string][]int) {
		cases = append(cases, shortRowCase{text, shapes})
	}
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 16, 17} {
		x, row, col := []int{rows, n}, []int{n}, []int{rows, 1}
		add("x + r", map[string][]int{"x": x, "r": row})
		add("r - x", map[string][]int{"x": x, "r": row})
		add("(x - mean) / std", map[string][]int{"x": {3, rows, n}, "mean": row, "std": row})
		add("max(x*w + b, 0)", map[string][]int{"x": x, "w": row, "b": {1, n}})
		add("where(x > r, x - r, r*s) + one", map[string][]int{"x": x, "r": row, "one": {1, 1}})
		add("sqrt(abs(r)) * x", map[string][]int{"x": x, "r": row})
		add("x / r", map[string][]int{"x": {2, rows, n}, "r": {2, 1, n}}) // a row per outer index
		add("x * y - x", map[string][]int{"x": {rows, 1, n}, "y": {1, 5, n}})
		add("fma(x, r, c)", map[string][]int{"x": x, "r": row, "c": col})
		add("x + c", map[string][]int{"x": x, "c": col})
		add("c*r + 1", map[string][]int{"c": col, "r": {1, n}})
		add("clamp(c, r, 2)", map[string][]int{"c": col, "r": {1, n}})
	}
	return cases
}

// TestShortRows checks expressions over short rows (shortRowCases) against
// the same ops one at a time through broadcast, bit for bit: every
// implementation, fused and by steps, alone, in parallel and in place, with
// blocks of whole tiles, a tile and a part, and (forced) blocks shorter
// than a tile.
func TestShortRows(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", shortRows[float32])
		t.Run("float64", shortRows[float64])
	})
}

func shortRows[T elem.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 7))
	// 80 and 160 rows of 3 make (2, rows, 3) one tile long (float64,
	// float32): a tiled output of one tile, and yet of two outer indices.
	rowCounts := []int{1, 80, 97, 160, 1000}
	if testing.Short() {
		rowCounts = []int{80, 160}
	}
	for _, rows := range rowCounts {
		for _, c := range shortRowCases(rows) {
			g := &gen[T]{env: env[T]{arrays: map[string][]T{}, scalars: map[string]T{"s": -0.5}}}
			for name, shape := range c.shapes {
				size, _ := broadcast.Shape(shape).Size()
				g.env.arrays[name] = testkit.RandomData[T](rng, size)
			}
			root, err := Parse[T](c.text, c.shapes)
			require.NoError(t, err)
			want, _ := opByOp(t, root.n, g.env)
			for _, block := range []int{0, 1000, 5000, 5} {
				p, err := compile(root, block)
				require.NoError(t, err)
				what := fmt.Sprintf("%s over %v, block %d (tile %d)", c.text, c.shapes, block, p.tile)
				for _, fused := range []bool{true, false} {
					restore := forceFusion(p, fused)
					checkRuns(t, g, p, want, fmt.Sprintf("%s (fused %v)", what, fused))
					restore()
				}
			}
		}
	}
}

// TestShortRowsIntegers runs tiled plans on integers, which have no fused
// kernels.
func TestShortRowsIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 8))
	for _, n := range []int{1, 3, 16, 63} {
		e := env[int8]{arrays: map[string][]int8{
			"x": testkit.RandomNumbers[int8](rng, 1000*n), "r": testkit.RandomNumbers[int8](rng, n),
		}}
		x, r := Input[int8]("x", 1000, n), Input[int8]("r", n)
		root := Max(Add(Mul(x, r), r), Const[int8](-3))
		want, _ := opByOp(t, root.n, e)
		for _, block := range []int{0, 100} {
			p, err := compile(root, block)
			require.NoError(t, err)
			got := make([]int8, p.Len())
			require.NoError(t, p.Run(got, Array("x", e.arrays["x"]), Array("r", e.arrays["r"])))
			require.Equal(t, want, got, "rows of %d, block %d", n, block)
		}
	}
}

// TestShortRowStrategy checks how runs over short rows past half the L2
// run: against repeated rows as rows of a tile, which the fused kernels
// take as long rows; with columns or the outer form, where the rows stay
// short, by steps (a kernel call per op over many rows), not the fused
// kernels, which would cut every row apart, unless the rows are
// minRowPast long.
func TestShortRowStrategy(t *testing.T) {
	const rows = 307200
	for _, c := range []struct {
		text   string
		shapes map[string][]int
		tiled  bool
		fused  bool
	}{
		{"x + r", map[string][]int{"x": {rows, 3}, "r": {3}}, true, true},
		{"(x - mean) / std", map[string][]int{"x": {480, 640, 3}, "mean": {3}, "std": {3}}, true, true},
		{"x + r", map[string][]int{"x": {rows, 16}, "r": {16}}, true, true},
		{"x + c", map[string][]int{"x": {rows, 3}, "c": {rows, 1}}, false, false},
		{"c + r", map[string][]int{"c": {rows, 1}, "r": {1, 3}}, false, false},
		{"x + c", map[string][]int{"x": {rows / 40, 120}, "c": {rows / 40, 1}}, false, false},
		{"x + c", map[string][]int{"x": {rows / 128, 128}, "c": {rows / 128, 1}}, false, true}, // rows of minRowPast
	} {
		what := fmt.Sprintf("%s over %v", c.text, c.shapes)
		root, err := Parse[float32](c.text, c.shapes)
		require.NoError(t, err)
		p, err := Compile(root)
		require.NoError(t, err)
		require.Equal(t, c.tiled, p.tile > 0, what)
		require.GreaterOrEqual(t, p.streamBytes, p.fused.minBytes, what)
		_, _, _, has := kernel.FuseImpl[float32](false, p.streamBytes)
		require.Equal(t, has && c.fused, p.Fused(), what)
		if c.tiled {
			require.GreaterOrEqual(t, p.rowLen()*int(unsafe.Sizeof(float32(0))), fuseMinRowBytes, what)
		}
	}
}

// TestTileEachRun checks that a run expands the repeated rows it is given,
// not those a run before it left in the tiles, in one block and in many,
// and allocates nothing.
func TestTileEachRun(t *testing.T) {
	for _, rows := range []int{100, 10000} {
		p, err := Compile(Add(Input[float32]("x", rows, 3), Input[float32]("r", 3)))
		require.NoError(t, err)
		require.Positive(t, p.tile)
		x, got := make([]float32, 3*rows), make([]float32, 3*rows)
		for _, r := range [][]float32{{1, 2, 3}, {4, 5, 6}} {
			require.NoError(t, p.Run(got, Array("x", x), Array("r", r)))
			for i, v := range got {
				require.Equal(t, r[i%3], v, "%d rows, element %d", rows, i)
			}
		}
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = p.Run(got, Array("x", x), Array("r", x[:3])) }))
	}
}

// TestShortRowsStream checks which runs past the streaming threshold write
// with streaming stores: those whose rows are whole cache lines or long,
// and a flat output's, but not rows that end inside a line.
func TestShortRowsStream(t *testing.T) {
	if !kernel.HasStreaming {
		t.Skip("no streaming stores here")
	}
	saved := kernel.Save()
	defer kernel.Restore(saved)
	kernel.SetStreamMinBytes(0)
	for _, c := range []struct {
		text   string
		shapes map[string][]int
		stream bool
	}{
		{"x + c", map[string][]int{"x": {1000, 3}, "c": {1000, 1}}, false},
		{"x + c", map[string][]int{"x": {1000, 17}, "c": {1000, 1}}, false},
		{"x + c", map[string][]int{"x": {1000, 500}, "c": {1000, 1}}, false},
		{"x + c", map[string][]int{"x": {1000, 16}, "c": {1000, 1}}, true},
		{"x + c", map[string][]int{"x": {100, 600}, "c": {100, 1}}, true},
		{"x + r", map[string][]int{"x": {100000, 3}, "r": {3}}, true},      // rows of the tile
		{"x * y", map[string][]int{"x": {1000, 1, 3}, "y": {5, 3}}, false}, // a tile cut short by the outer axis
		{"x + s", map[string][]int{"x": {1001}}, true},
	} {
		root, err := Parse[float32](c.text, c.shapes)
		require.NoError(t, err)
		p, err := Compile(root)
		require.NoError(t, err)
		require.Equal(t, c.stream, p.Streams(), "%s over %v", c.text, c.shapes)
		if fr, _, fused := p.fuser(p.pool.Get().(*scratch[float32])); fused {
			require.Equal(t, c.stream, fr.stream, "%s over %v, fused", c.text, c.shapes)
		}
	}
}
