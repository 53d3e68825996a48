package expr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// env is a run's inputs, as the reference sees them.
type env[T elem.Number] struct {
	arrays  map[string][]T
	scalars map[string]T
}

// args binds every input of p from e.
func (e env[T]) args(p *Plan[T]) []Binding {
	var args []Binding
	for _, n := range p.Inputs() {
		args = append(args, Array(n, e.arrays[n]))
	}
	for _, n := range p.Scalars() {
		args = append(args, Value(n, e.scalars[n]))
	}
	return args
}

// reference evaluates n op by op through elem's slice calls over whole
// arrays of the output shape, materialising every broadcast first: what a
// program without expr would do, and the bits expr must give.
func reference[T elem.Number](n *node[T], out broadcast.Shape, e env[T]) []T {
	size, _ := out.Size()
	dst := make([]T, size)
	switch n.kind {
	case kindInput:
		st, err := broadcast.Strides(n.shape, out)
		if err != nil {
			panic(err)
		}
		src, i := e.arrays[n.name], 0
		testkit.EachIndex(out, func(idx []int) {
			dst[i] = src[testkit.Offset(idx, st)]
			i++
		})
	case kindScalar, kindConst:
		v := n.val
		if n.kind == kindScalar {
			v = e.scalars[n.name]
		}
		for i := range dst {
			dst[i] = v
		}
	case kindBinary:
		elem.Apply(elem.Op(n.op), dst, reference(n.args[0], out, e), reference(n.args[1], out, e))
	default:
		referenceFloat(n, out, e, dst)
	}
	return dst
}

// referenceFloat is reference for the ops that exist on floats only.
func referenceFloat[T elem.Number](n *node[T], out broadcast.Shape, e env[T], dst []T) {
	f, ok := any(dst).([]float32)
	if ok {
		referenceOn(any(n).(*node[float32]), out, any(e).(env[float32]), f)
		return
	}
	referenceOn(any(n).(*node[float64]), out, any(e).(env[float64]), any(dst).([]float64))
}

func referenceOn[T elem.Float](n *node[T], out broadcast.Shape, e env[T], dst []T) {
	arg := func(i int) []T { return reference(n.args[i], out, e) }
	switch n.kind {
	case kindUnary:
		elem.ApplyUnary(elem.UnaryOp(n.op), dst, arg(0))
	case kindTernary:
		elem.ApplyTernary(elem.TernaryOp(n.op), dst, arg(0), arg(1), arg(2))
	case kindSelect:
		c := n.args[0]
		cond := make([]bool, len(dst))
		elem.Compare(elem.CompareOp(c.op), cond, reference(c.args[0], out, e), reference(c.args[1], out, e))
		elem.Select(dst, cond, arg(1), arg(2))
	}
}

// gen builds random expressions over random broadcastable inputs.
type gen[T elem.Float] struct {
	rng     *rand.Rand
	out     broadcast.Shape
	inputs  []Node[T]
	scalars []Node[T]
	env     env[T]
}

// newGen makes an output shape of rank 0 to 4 and up to four array inputs
// and two scalars that broadcast to it.
func newGen[T elem.Float](rng *rand.Rand) *gen[T] {
	g := &gen[T]{rng: rng, env: env[T]{arrays: map[string][]T{}, scalars: map[string]T{}}}
	rank := rng.IntN(5)
	for d := range rank {
		n := 1 + rng.IntN(6)
		switch {
		case d == rank-1 && rank <= 2 && rng.IntN(4) == 0:
			n = 1 + rng.IntN(3000) // rows of many chunks of the fused kernels
		case d == rank-1 && rng.IntN(2) == 0:
			n = 1 + rng.IntN(300)
		}
		g.out = append(g.out, n)
	}
	for i := range 1 + rng.IntN(4) {
		keep := rng.IntN(len(g.out) + 1)
		if i == 0 {
			keep = len(g.out) // one input has the output's rank
		}
		var shape []int
		for _, n := range g.out[len(g.out)-keep:] {
			if rng.IntN(3) == 0 {
				n = 1
			}
			shape = append(shape, n)
		}
		name := fmt.Sprintf("x%d", i)
		size, _ := broadcast.Shape(shape).Size()
		g.env.arrays[name] = testkit.RandomData[T](rng, size)
		g.inputs = append(g.inputs, Input[T](name, shape...))
	}
	for i := range rng.IntN(3) {
		name := fmt.Sprintf("s%d", i)
		g.env.scalars[name] = testkit.RandomData[T](rng, 1)[0]
		g.scalars = append(g.scalars, Scalar[T](name))
	}
	return g
}

// node returns a random expression of at most depth levels of ops.
func (g *gen[T]) node(depth int) Node[T] {
	r := g.rng
	if depth == 0 || r.IntN(4) == 0 {
		switch k := r.IntN(6); {
		case k == 0:
			return Const(testkit.RandomData[T](r, 1)[0])
		case k == 1 && len(g.scalars) > 0:
			return g.scalars[r.IntN(len(g.scalars))]
		}
		return g.inputs[r.IntN(len(g.inputs))]
	}
	sub := func() Node[T] { return g.node(depth - 1) }
	switch r.IntN(4) {
	case 0:
		return Unary(elem.UnaryOps()[r.IntN(len(elem.UnaryOps()))], sub())
	case 1:
		return ternary(elem.TernaryOps()[r.IntN(2)], sub(), sub(), sub())
	case 2:
		c := Compare(elem.CompareOps()[r.IntN(6)], sub(), sub())
		return Where(c, sub(), sub())
	}
	x := Apply(elem.Ops()[r.IntN(len(elem.Ops()))], sub(), sub())
	if r.IntN(4) == 0 { // a shared node: computed once, used twice
		return Mul(x, x)
	}
	return x
}

// root is node with at least one op at the top.
func (g *gen[T]) root(depth int) Node[T] {
	for {
		if n := g.node(depth); n.n.kind > kindConst {
			return n
		}
	}
}

// blockSizes are the forced block sizes the random tests try: one element,
// odd sizes that split rows, and the automatic choice (0).
var blockSizes = []int{1, 3, 7, 64, 100, 0}

func TestRandomExpressions(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", func(t *testing.T) { randomExpressions[float32](t, 1) })
		t.Run("float64", func(t *testing.T) { randomExpressions[float64](t, 2) })
	})
}

func randomExpressions[T elem.Float](t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 12))
	iters := 300
	if testing.Short() {
		iters = 60
	}
	for iter := range iters {
		g := newGen[T](rng)
		root := g.root(1 + rng.IntN(6))
		checkAgainstReference(t, g, root, blockSizes[iter%len(blockSizes)], fmt.Sprintf("iteration %d", iter))
	}
}

// checkAgainstReference compiles root, runs it (alone, in parallel, and in
// place where an input allows) and compares every bit with reference.
func checkAgainstReference[T elem.Float](t *testing.T, g *gen[T], root Node[T], block int, what string) {
	t.Helper()
	p, err := compile(root, block)
	require.NoError(t, err, what)
	want := reference(root.n, p.Shape(), g.env) // the inputs root uses may broadcast to less than g.out
	for _, fused := range []bool{true, false} {
		restore := forceFusion(p, fused)
		checkRuns(t, g, p, want, fmt.Sprintf("%s (fused %v)", what, fused))
		restore()
	}
}

// forceFusion makes p's runs take the fused kernels (where p has them)
// whatever their traffic and rows, or never, until the returned function
// puts the plan back. The plan keeps its program, so its scratch always
// has the fused kernels' buffers.
func forceFusion[T elem.Number](p *Plan[T], fused bool) (restore func()) {
	saved := p.fused
	if saved == nil {
		return func() {}
	}
	f := *saved
	f.minBytes, f.minRow, f.minOut, f.minRowPast = 0, 0, 0, 0
	if !fused {
		f.minBytes, f.minRow, f.minOut, f.minRowPast = math.MaxInt, math.MaxInt, math.MaxInt, math.MaxInt
	}
	p.fused = &f
	return func() { p.fused = saved }
}

// checkRuns runs p (alone, in parallel, and in place where an input
// allows) and compares every bit with want.
func checkRuns[T elem.Float](t *testing.T, g *gen[T], p *Plan[T], want []T, what string) {
	t.Helper()
	got := make([]T, p.Len())
	require.NoError(t, p.Run(got, g.env.args(p)...), what)
	testkit.RequireSameBits(t, want, got, what+": Run")
	par := make([]T, p.Len())
	require.NoError(t, p.RunParallel(3, par, g.env.args(p)...), what)
	testkit.RequireSameBits(t, want, par, what+": RunParallel")
	for _, name := range p.Inputs() {
		if x := g.env.arrays[name]; len(x) == p.Len() {
			inPlace := append([]T(nil), x...)
			args := g.env.args(p)
			for i := range args {
				if a := args[i].(Arg[T]); a.name == name {
					a.data = inPlace
					args[i] = a
				}
			}
			require.NoError(t, p.Run(inPlace, args...), what)
			testkit.RequireSameBits(t, want, inPlace, what+": in place over "+name)
			break
		}
	}
}

// TestEveryOp runs each op alone and inside a small chain, over every
// operand pattern (array, row, column, scalar, constant).
func TestEveryOp(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", everyOp[float32])
		t.Run("float64", everyOp[float64])
	})
}

func everyOp[T elem.Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := &gen[T]{rng: rng, out: broadcast.Shape{37, 129}, env: env[T]{arrays: map[string][]T{}, scalars: map[string]T{}}}
	for _, in := range []struct {
		name  string
		shape []int
	}{{"a", []int{37, 129}}, {"row", []int{129}}, {"col", []int{37, 1}}, {"one", []int{1, 1}}} {
		size, _ := broadcast.Shape(in.shape).Size()
		g.env.arrays[in.name] = testkit.RandomData[T](rng, size)
		g.inputs = append(g.inputs, Input[T](in.name, in.shape...))
	}
	g.env.scalars["s"] = 0.75
	operands := append(append([]Node[T]{}, g.inputs...), Scalar[T]("s"), Const[T](-2.5))
	pick := func(i int) Node[T] { return operands[i%len(operands)] }
	var cases []struct {
		name string
		root Node[T]
	}
	add := func(name string, n Node[T]) {
		cases = append(cases, struct {
			name string
			root Node[T]
		}{name, Add(n, g.inputs[0])}) // the output is always (37, 129)
	}
	// Every pair of operands; under -race and -short, where the sweep is
	// the same Go calling the kernels the full run checks, the first 8.
	pairs := len(operands) * len(operands)
	for i := range testkit.Sweep(pairs, 8, 8) {
		a, b, c := pick(i), pick(i/len(operands)), pick(i+2)
		for _, op := range elem.Ops() {
			add(fmt.Sprintf("%v/%d", op, i), Apply(op, a, b))
		}
		for _, op := range elem.UnaryOps() {
			add(fmt.Sprintf("%v/%d", op, i), Unary(op, a))
		}
		for _, op := range elem.TernaryOps() {
			add(fmt.Sprintf("%v/%d", op, i), ternary(op, a, b, c))
		}
		for _, op := range elem.CompareOps() {
			add(fmt.Sprintf("where-%v/%d", op, i), Where(Compare(op, a, b), c, a))
		}
	}
	for _, c := range cases {
		for _, block := range []int{0, 50} {
			checkAgainstReference(t, g, c.root, block, fmt.Sprintf("%s block %d", c.name, block))
		}
	}
}

// TestIntegers runs the ops defined on integers, which wrap around as Go's.
func TestIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := testkit.RandomInts[int32](rng, 6*70)
	w := testkit.RandomInts[int32](rng, 70)
	e := env[int32]{arrays: map[string][]int32{"x": x, "w": w}, scalars: map[string]int32{"k": -7}}
	xs, ws, k := Input[int32]("x", 6, 70), Input[int32]("w", 70), Scalar[int32]("k")
	_, err := Compile(Apply(elem.OpDiv, xs, ws))
	require.ErrorIs(t, err, ErrOp, "integer division is not an elem op")
	require.ErrorContains(t, err, "expr: invalid operation: div is not defined on int32")
	for _, c := range []struct {
		name string
		root Node[int32]
	}{
		{"mul-add-max", Max(Add(Mul(xs, ws), k), Const[int32](0))},
		{"sub-min", Min(Sub(k, xs), ws)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := compile(c.root, 16)
			require.NoError(t, err)
			got := make([]int32, p.Len())
			require.NoError(t, p.Run(got, Array("x", x), Array("w", w), Value("k", int32(-7))))
			require.Equal(t, reference(c.root.n, broadcast.Shape{6, 70}, e), got)
		})
	}
}

func TestRunAllocatesNothing(t *testing.T) {
	x, s := Input[float32]("x", 4096), Scalar[float32]("s")
	p, err := Compile(Div(Sub(x, Scalar[float32]("m")), s))
	require.NoError(t, err)
	xs, dst := make([]float32, 4096), make([]float32, 4096)
	run := func() {
		if err := p.Run(dst, Array("x", xs), Value[float32]("m", 1), Value[float32]("s", 2)); err != nil {
			panic(err)
		}
	}
	run()
	require.Zero(t, testing.AllocsPerRun(100, run))
}

func TestConcurrentRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	g := newGen[float64](rng)
	root := g.root(4)
	p, err := compile(root, 5)
	require.NoError(t, err)
	want := reference(root.n, p.Shape(), g.env)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 50 {
				got := make([]float64, p.Len())
				if err := p.Run(got, g.env.args(p)...); err != nil {
					errs <- err
					return
				}
				for i := range got {
					if testkit.Bits(got[i]) != testkit.Bits(want[i]) {
						errs <- fmt.Errorf("element %d: %v, want %v", i, got[i], want[i])
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
}

func TestErrors(t *testing.T) {
	x, w, m := Input[float32]("x", 4, 3), Input[float32]("w", 3), Scalar[float32]("m")
	p, err := Compile(Add(Mul(x, w), m))
	require.NoError(t, err)
	xs, ws := make([]float32, 12), make([]float32, 3)
	sentinel := float32(42)
	cases := []struct {
		name string
		dst  []float32
		args []Binding
		is   error
		want string
	}{
		{"dst length", make([]float32, 11), []Binding{Array("x", xs), Array("w", ws), Value[float32]("m", 1)}, ErrLength, "dst has length 11, the output shape (4,3) needs 12"},
		{"data length", nil, []Binding{Array("x", xs[:11]), Array("w", ws), Value[float32]("m", 1)}, ErrLength, `input "x" has 11 elements, its shape (4,3) has 12`},
		{"unknown", nil, []Binding{Array("x", xs), Array("w", ws), Value[float32]("m", 1), Array("y", xs)}, ErrInput, `unknown input "y"`},
		{"missing", nil, []Binding{Array("x", xs), Value[float32]("m", 1)}, ErrInput, `missing array input "w" of shape (3)`},
		{"missing scalar", nil, []Binding{Array("x", xs), Array("w", ws)}, ErrInput, `missing scalar input "m"`},
		{"twice", nil, []Binding{Array("x", xs), Array("x", xs), Array("w", ws), Value[float32]("m", 1)}, ErrInput, `input "x" is bound twice`},
		{"array as scalar", nil, []Binding{Value[float32]("x", 1), Array("w", ws), Value[float32]("m", 1)}, ErrInput, `"x" is an array input of shape (4,3); bind it with Array`},
		{"scalar as array", nil, []Binding{Array("x", xs), Array("w", ws), Array("m", ws)}, ErrInput, `"m" is a scalar input; bind it with Value`},
		{"row inside dst", nil, []Binding{Array("x", xs), Array[float32]("w", nil), Value[float32]("m", 1)}, ErrOverlap, `dst (shape (4,3)) and input "w" (shape (3))`},
		{"shifted dst", nil, []Binding{Array[float32]("x", nil), Array("w", ws), Value[float32]("m", 1)}, ErrOverlap, `input "x" (shape (4,3))`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf := make([]float32, 20)
			for i := range buf {
				buf[i] = sentinel
			}
			dst := buf[:12]
			if c.dst != nil {
				dst = buf[:len(c.dst)]
			}
			for i := range c.args {
				a := c.args[i].(Arg[float32])
				switch {
				case a.name == "w" && a.data == nil && !a.scalar:
					a.data = buf[5:8]
				case a.name == "x" && a.data == nil && !a.scalar:
					a.data = buf[1:13]
				}
				c.args[i] = a
			}
			err := p.Run(dst, c.args...)
			require.ErrorIs(t, err, c.is)
			require.ErrorContains(t, err, c.want)
			for i, v := range dst {
				require.Equal(t, sentinel, v, "dst[%d] written", i)
			}
			require.ErrorIs(t, p.RunParallel(2, dst, c.args...), c.is)
		})
	}
}

func TestCompileErrors(t *testing.T) {
	x := Input[float64]("x", 4, 3)
	cases := []struct {
		name string
		root Node[float64]
		is   error
		want string
	}{
		{"shapes", Add(x, Input[float64]("y", 4)), ErrShape, `input "y" of shape (4) does not broadcast with shape (4,3)`},
		{"two shapes", Add(x, Input[float64]("x", 3)), ErrInput, `input "x" is used with shapes (4,3) and (3)`},
		{"array and scalar", Add(x, Scalar[float64]("x")), ErrInput, `"x" is used both as a scalar and as an array of shape (4,3)`},
		{"bare input", x, ErrNoOp, "bare input"},
		{"empty", Node[float64]{}, ErrNoOp, "empty Node"},
		{"empty argument", Add(x, Node[float64]{}), ErrInput, "empty Node argument"},
		{"negative", Add(x, Input[float64]("n", -1)), ErrInput, `input "n"`},
		{"invalid op", Sqrt(Apply(elem.Op(99), x, x)), ErrOp, "expr: invalid operation: Op(99) is not one of elem's binary ops"},
		{"invalid unary op", Add(x, Unary(elem.UnaryOp(99), x)), ErrOp, "expr: invalid operation: UnaryOp(99) is not one of elem's unary ops"},
		{"invalid comparison", Where(Compare(elem.CompareOp(99), x, x), x, x), ErrOp, "expr: invalid operation: CompareOp(99) is not one of elem's comparisons"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile(c.root)
			require.ErrorIs(t, err, c.is)
			require.ErrorContains(t, err, c.want)
			require.NotContains(t, err.Error(), "kernel")
			require.NotPanics(t, func() { _ = c.root.String() })
		})
	}
}

// TestNilAndZeroPlans checks that running a nil *Plan or the zero Plan is
// an error wrapping ErrPlan, as in package broadcast, and that their other
// methods answer as for a plan of nothing.
func TestNilAndZeroPlans(t *testing.T) {
	var zero Plan[float32]
	for _, c := range []struct {
		name string
		p    *Plan[float32]
		says string
	}{{"nil", nil, "expr: invalid plan: the plan is nil"}, {"zero", &zero, "expr: invalid plan: the zero Plan is not a plan: build one with Compile"}} {
		t.Run(c.name, func(t *testing.T) {
			for _, err := range []error{c.p.Run(nil), c.p.RunParallel(2, nil), c.p.Run(make([]float32, 4), Value[float32]("x", 1))} {
				require.ErrorIs(t, err, ErrPlan)
				require.EqualError(t, err, c.says)
			}
			require.Empty(t, c.p.Shape())
			require.Zero(t, c.p.Len())
			require.Empty(t, c.p.Inputs())
			require.Empty(t, c.p.Scalars())
			require.Zero(t, c.p.BlockLen(false))
			require.False(t, c.p.Streams())
			require.False(t, c.p.Fused())
		})
	}
}

func TestEmptyAndScalarOutputs(t *testing.T) {
	p, err := Compile(Add(Input[float32]("x", 3, 0), Input[float32]("w", 1)))
	require.NoError(t, err)
	require.Equal(t, 0, p.Len())
	require.NoError(t, p.Run(nil, Array[float32]("x", nil), Array("w", []float32{1})))

	q, err := Compile(Mul(Scalar[float32]("a"), Const[float32](3)))
	require.NoError(t, err)
	require.Equal(t, []int{}, q.Shape())
	got := make([]float32, 1)
	require.NoError(t, q.Run(got, Value[float32]("a", 2)))
	require.Equal(t, float32(6), got[0])
}

func TestAccessors(t *testing.T) {
	p, err := Compile(Sub(Input[float32]("x", 2, 3), Scalar[float32]("m")))
	require.NoError(t, err)
	require.Equal(t, []string{"x"}, p.Inputs())
	require.Equal(t, []string{"m"}, p.Scalars())
	require.Equal(t, 6, p.Len())
	require.Positive(t, p.BlockLen(false))
	require.Positive(t, p.BlockLen(true))
	require.True(t, strings.HasPrefix(ErrShape.Error(), "expr:"))
}

// TestRunParallelSplits checks a RunParallel big enough to split (the
// random tests' outputs run on one goroutine), with blocks that cut rows,
// over a 3-D output with every operand pattern, streaming or not.
func TestRunParallelSplits(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, 12))
		g := &gen[float32]{rng: rng, env: env[float32]{arrays: map[string][]float32{}, scalars: map[string]float32{"s": 1.5}}}
		for _, in := range []struct {
			name  string
			shape []int
		}{{"x", []int{3, 170, 190}}, {"row", []int{190}}, {"col", []int{170, 1}}} {
			size, _ := broadcast.Shape(in.shape).Size()
			g.env.arrays[in.name] = testkit.RandomData[float32](rng, size)
			g.inputs = append(g.inputs, Input[float32](in.name, in.shape...))
		}
		x, row, col := g.inputs[0], g.inputs[1], g.inputs[2]
		root := Where(Gt(x, col), FMA(x, row, Scalar[float32]("s")), Sqrt(Abs(Sub(x, row))))
		for _, block := range []int{1000, 0} {
			p, err := compile(root, block)
			require.NoError(t, err)
			want := reference(root.n, p.Shape(), g.env)
			for _, workers := range []int{2, 3, 7} {
				got := make([]float32, p.Len())
				require.NoError(t, p.RunParallel(workers, got, g.env.args(p)...))
				testkit.RequireSameBits(t, want, got, fmt.Sprintf("block %d, %d workers", block, workers))
			}
		}
	})
}

// TestFusedKernelsRun checks that a run past the caches takes the fused
// kernels wherever the implementation in effect has them, and that a plan
// with an op of every fused family gets a program.
func TestFusedKernelsRun(t *testing.T) {
	n := 1 << 20
	root, err := Parse[float32]("where(x > m, fma(x, s, m), -max(x, s))", map[string][]int{"x": {n}})
	require.NoError(t, err)
	p, err := Compile(root)
	require.NoError(t, err)
	require.NotNil(t, p.fused, "every op here has a fused kernel")
	s := p.pool.Get().(*scratch[float32])
	defer p.pool.Put(s)
	require.NoError(t, p.bind(s, make([]float32, n), []Binding{Array("x", make([]float32, n)), Value[float32]("m", 1), Value[float32]("s", 2)}))
	_, _, fused := p.fuser(s)
	_, _, _, has := kernel.FuseImpl[float32](true, 1<<30)
	require.Equal(t, has, fused, "runs of %d bytes take the fused kernels where they exist", p.streamBytes)
}

// TestFusedRowEnds runs the fused kernels over outputs that start anywhere
// in a vector (with every run streaming, in the -stream implementations,
// so that rows have a head before the first vector boundary), over rows
// of every length about a group and a chunk, apart and in place: the ends
// of rows as overlapping groups, and as copies where dst is an input or a
// row is shorter than a group.
func TestFusedRowEnds(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		for _, n := range []int{1, 7, 31, 33, 64, 65, 130, 255, 257, 1000, 1031} {
			for _, rows := range []int{1, 3} {
				g := &gen[float32]{rng: rng, env: env[float32]{arrays: map[string][]float32{}, scalars: map[string]float32{"s": 0.75}}}
				x, w := Input[float32]("x", rows, n), Input[float32]("w", n)
				g.env.arrays["x"] = testkit.RandomData[float32](rng, rows*n)
				g.env.arrays["w"] = testkit.RandomData[float32](rng, n)
				root := Max(Add(Mul(x, w), Scalar[float32]("s")), Sub(x, w))
				p, err := Compile(root)
				require.NoError(t, err)
				require.NotNil(t, p.fused)
				forceFusion(p, true)
				want := reference(root.n, p.Shape(), g.env)
				for skip := range 9 {
					what := fmt.Sprintf("%d rows of %d, dst %d elements into its buffer", rows, n, skip)
					buf := make([]float32, skip+rows*n+8)
					got := buf[skip : skip+rows*n]
					require.NoError(t, p.Run(got, g.env.args(p)...), what)
					testkit.RequireSameBits(t, want, got, what)
					copy(got, g.env.arrays["x"])
					args := g.env.args(p)
					args[0] = Array("x", got)
					require.NoError(t, p.Run(got, args...), what)
					testkit.RequireSameBits(t, want, got, what+", in place over x")
				}
			}
		}
	})
}

// TestBindNames binds inputs whose names share first bytes, an empty name,
// and more inputs than one word of bind's bits, in every order given.
func TestBindNames(t *testing.T) {
	arrays, scalars := []string{"", "x", "xy", "xz"}, []string{"s", "st"}
	for i := range 66 {
		arrays = append(arrays, fmt.Sprintf("a%d", i))
	}
	var sum Node[float64]
	want := 0.0
	var args []Binding
	for i, n := range arrays {
		v := float64(i + 1)
		if i == 0 {
			sum = Input[float64](n, 1)
		} else {
			sum = Add(sum, Input[float64](n, 1))
		}
		want += v
		args = append(args, Array(n, []float64{v}))
	}
	for i, n := range scalars {
		v := float64(100 * (i + 1))
		sum = Add(sum, Scalar[float64](n))
		want += v
		args = append(args, Value(n, v))
	}
	p, err := Compile(sum)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		rng.Shuffle(len(args), func(i, j int) { args[i], args[j] = args[j], args[i] })
		dst := []float64{0}
		require.NoError(t, p.Run(dst, args...))
		require.Equal(t, want, dst[0])
	}
	for _, drop := range []string{"a65", "xy", "", "st"} {
		var fewer []Binding
		for _, a := range args {
			if a.(Arg[float64]).name != drop {
				fewer = append(fewer, a)
			}
		}
		err := p.Run([]float64{0}, fewer...)
		require.ErrorIs(t, err, ErrInput)
		require.ErrorContains(t, err, fmt.Sprintf("input %q", drop))
	}
	require.ErrorContains(t, p.Run([]float64{0}, append(args, Array("xw", []float64{1}))...), `unknown input "xw"`)
	require.ErrorContains(t, p.Run([]float64{0}, append(args, Value[float64]("a1", 1))...), `"a1" is an array input`)
}

// TestSpareScratch checks how runs get their scratch: the plan's spare
// while they follow one another, the pool for good once two overlap.
func TestSpareScratch(t *testing.T) {
	p, err := Compile(Add(Input[float32]("x", 8), Scalar[float32]("s")))
	require.NoError(t, err)
	x, dst := make([]float32, 8), make([]float32, 8)
	run := func() { require.NoError(t, p.Run(dst, Array("x", x), Value[float32]("s", 1))) }
	run()
	first := p.spare.Load()
	require.NotNil(t, first, "a run leaves its scratch as the spare")
	run()
	require.Same(t, first, p.spare.Load(), "the next run takes the spare and gives it back")
	require.False(t, p.shared.Load())
	held := p.get() // a run in progress, as on another goroutine
	run()
	require.True(t, p.shared.Load(), "a run that finds the spare taken turns to the pool")
	p.put(held)
	require.Nil(t, p.spare.Load(), "once shared, scratch goes back to the pool")
	run()
	require.Equal(t, float32(1), dst[0])
}
