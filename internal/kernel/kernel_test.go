package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// testLengths covers every tail and unroll boundary of every vector width up
// to 300, and a few long runs. -short (used under emulators, whose vectors
// are NEON's 16 bytes) stops at 140, past two main-loop blocks of bytes;
// -race (see testkit.Sweep) at 20, with two long runs.
func testLengths() []int {
	var ls []int
	for n := 0; n <= testkit.Sweep(300, 140, 20); n++ {
		ls = append(ls, n)
	}
	if testkit.Race {
		return append(ls, 257, 1025)
	}
	return append(ls, 255, 256, 257, 1023, 1024, 1025, 4096, 4097, 4099, 4103, 4111)
}

// testOffsets is the number of start offsets (in elements) of every slice:
// all alignments of a 64-byte line for float32. -short (used under
// emulators) keeps four, -race two.
func testOffsets() int { return testkit.Sweep(16, 4, 2) }

// offsetsFor lists the start offsets a slice of n elements is tested at.
// With every set and up to 64 elements (where a kernel's aligned head, body
// and tail meet in every combination) that is all of testOffsets. Beyond,
// and for the calls that share their loads, stores and tails with others
// (the scalar kinds, the math ops), two, which move with n's block of 16:
// each residue of n mod 16 meets every offset over the lengths to 300.
// The whole cross product took three quarters of the kernel tests' time.
func offsetsFor(n int, every bool) []int {
	k := testOffsets()
	if every && n <= 64 {
		offs := make([]int, k)
		for i := range offs {
			offs[i] = i
		}
		return offs
	}
	a := n / 16 % k
	return []int{a, (a + k/2) % k}
}

// call is one call of one family's op on one row of one kind.
type call struct {
	f     family
	op, k int
	n     int
	alias int // 0: none; i+1: dst is input i
}

func (c call) String() string {
	s := fmt.Sprintf("%s %s %s n=%d", c.f.name, c.f.ops[c.op], c.f.kinds[c.k], c.n)
	if c.alias > 0 {
		s += fmt.Sprintf(" dst=input%d", c.alias-1)
	}
	return s
}

// aliases lists the exact aliasings kind k allows: dst may be a vector
// input of dst's type.
func (f family) aliases(k int) []int {
	as := []int{0}
	for i, typ := range f.inputs {
		if f.vector[k][i] && typ == f.out {
			as = append(as, i+1)
		}
	}
	return as
}

// check runs the call on guarded operands and compares the result, the
// inputs and every guard cell with the reference.
func check(t *testing.T, tc typeCase, c call, off int, rng *rand.Rand) {
	f := c.f
	ins := make([]slot, len(f.inputs))
	args := make([]any, len(f.inputs))
	for i, typ := range f.inputs {
		n := 1
		if f.vector[c.k][i] {
			n = c.n
		}
		ins[i] = tc.newSlot(typ, n, (off+5*i+3)%16, rng)
		args[i] = ins[i].data
	}
	dst := tc.newSlot(f.out, c.n, (off+9)%16, rng)
	if c.alias > 0 {
		dst = ins[c.alias-1]
	}
	want := clone(dst.data)
	refIns := make([]any, len(args))
	before := make([]any, len(args))
	for i, a := range args {
		refIns[i], before[i] = clone(a), clone(a)
	}
	ld := make([]int, len(args))
	f.ref(c.op, f.kinds[c.k], 1, c.n, want, 0, refIns, ld)

	f.run(c.op, f.kinds[c.k], 1, c.n, dst.data, 0, args, ld, tc.stream(c.n, len(args)+1))

	what := fmt.Sprintf("%s %s off=%d", c, tc.name, off)
	requireSame(t, want, dst.data, what)
	dst.guards(t, what)
	for i, s := range ins {
		s.guards(t, what)
		if c.alias != i+1 {
			requireSame(t, before[i], s.data, fmt.Sprintf("%s: input %d", what, i))
		}
	}
}

// TestKernelsMatchGeneric runs every op of every family on every kind and
// element type, with every implementation, against the generic reference:
// every length to 300 and some long ones, at the start offsets of
// offsetsFor (all of them up to 64 elements for a family's first kind; the
// other kinds differ from it in the per-row operands alone), dst fresh or
// exactly an input.
func TestKernelsMatchGeneric(t *testing.T) {
	testkit.EachSIMDImplementation(t, func(t *testing.T) {
		eachType(t, 1, func(t *testing.T, tc typeCase) {
			rng := rand.New(rand.NewPCG(1, 2))
			everyStreams := kernel.StreamMinBytes() == 0
			for _, f := range tc.families {
				for op := range f.ops {
					if everyStreams && (!f.stream || isMathOp(f.ops[op])) {
						continue // no streaming twin: the run before tested these kernels
					}
					for k := range f.kinds {
						for _, n := range testLengths() {
							for _, off := range offsetsFor(n, k == 0 && !isMathOp(f.ops[op])) {
								for _, al := range f.aliases(k) {
									check(t, tc, call{f: f, op: op, k: k, n: n, alias: al}, off, rng)
								}
							}
						}
					}
				}
			}
		})
	})
}

// isMathOp is whether op is a math function (exp, hypot, ...): a long
// routine per element in the generic reference, whose kernels share their
// loads, stores and tails with every other op's, so that TestKernelsMatchGeneric
// runs them at two offsets per length rather than all sixteen.
func isMathOp(op string) bool {
	_, unary := mathFuncs[op]
	_, binary := mathPairs[op]
	return unary || binary
}

// TestSpecialValues puts special values through every kernel, in the vector
// body and in every tail position: every ordered pair (and, for three
// inputs, every pair beside each special) for the vector inputs, every
// special as a per-row value.
func TestSpecialValues(t *testing.T) {
	testkit.EachSIMDImplementation(t, func(t *testing.T) {
		eachType(t, 2, testSpecialValues)
	})
}

func testSpecialValues(t *testing.T, tc typeCase) {
	sp := specialBits(tc.specials)
	var tuples [][3]uint64
	for i, x := range sp {
		for j, y := range sp {
			tuples = append(tuples, [3]uint64{x, y, sp[(i+j)%len(sp)]})
		}
	}
	for _, f := range tc.families {
		for op := range f.ops {
			for k, kind := range f.kinds {
				cols := make([]any, len(f.inputs))
				for shift := 0; shift <= 16; shift += 4 {
					n := len(tuples) + shift
					// A per-row shift count takes every count, one row each,
					// over the same row of values.
					m, ld := 1, make([]int, len(cols))
					for i, typ := range f.inputs {
						cols[i] = specialColumn(tc, typ, f.vector[k][i], tuples, i, shift, n)
						if typ == "uint" && !f.vector[k][i] {
							m, ld[i] = len(testkit.ShiftCounts()), 1
						}
					}
					want, got := tc.makeOut(f.out, m*n), tc.makeOut(f.out, m*n)
					f.ref(op, kind, m, n, want, n, cols, ld)
					f.run(op, kind, m, n, got, n, cols, ld, false)
					requireSame(t, want, got, fmt.Sprintf("%s %s %s shift %d", f.name, f.ops[op], kind, shift))
				}
				// Rows of one element each (a strided view's column), a
				// tuple a row, which the kernels run in a loop of their own.
				m, ld := len(tuples), make([]int, len(cols))
				for i, typ := range f.inputs {
					cols[i] = specialColumn(tc, typ, f.vector[k][i], tuples, i, 0, m)
					switch {
					case f.vector[k][i]:
						ld[i] = 1
					case typ == "uint":
						m = min(m, len(testkit.ShiftCounts())) // a count per row
						ld[i] = 1
					}
				}
				want, got := tc.makeOut(f.out, m), tc.makeOut(f.out, m)
				f.ref(op, kind, m, 1, want, 1, cols, ld)
				f.run(op, kind, m, 1, got, 1, cols, ld, false)
				requireSame(t, want, got, fmt.Sprintf("%s %s %s rows of one", f.name, f.ops[op], kind))
			}
		}
	}
}

// specialBits returns the bit patterns of a []T of special values.
func specialBits(specials any) []uint64 {
	var bs []uint64
	for i := range sliceLen(specials) {
		bs = append(bs, rawBitsAt(specials, i))
	}
	return bs
}

// specialColumn builds input i of a special-values call: component i of
// every tuple after shift cells of zero bits, or, for a per-row input, the
// component of one tuple (the per-row value walks through the specials as
// shift changes). Bools follow a pattern of their own; a per-row shift
// count is every count of testkit.ShiftCounts, one per row.
func specialColumn(tc typeCase, typ string, vector bool, tuples [][3]uint64, i, shift, n int) any {
	if typ == "uint" && !vector {
		return testkit.ShiftCounts() // every count, one per row
	}
	if !vector {
		n = 1
	}
	switch typ {
	case "bool":
		b := make([]bool, n)
		for j := range b {
			b[j] = (j*7+i+shift)%3 == 0
		}
		return b
	case "uint":
		counts := testkit.ShiftCounts()
		c := make([]uint, n)
		for j := range c {
			c[j] = counts[(j+shift*5)%len(counts)]
		}
		return c
	}
	if !vector {
		return tc.fromBits(1, func(int) uint64 { return tuples[shift*5%len(tuples)][i] })
	}
	return tc.fromBits(n, func(j int) uint64 {
		if j < shift {
			return 0
		}
		return tuples[j-shift][i]
	})
}

// TestBlocks runs every kernel on several rows with leading strides, per-row
// inputs one value per row, against the reference.
func TestBlocks(t *testing.T) {
	testkit.EachSIMDImplementation(t, func(t *testing.T) {
		eachType(t, 3, testBlocks)
	})
}

func testBlocks(t *testing.T, tc typeCase) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range tc.families {
		for op := range f.ops {
			for k, kind := range f.kinds {
				for _, n := range []int{1, 3, 8, 17, 33, 64} {
					const m = 5
					ldd := n + 3
					ins := make([]any, len(f.inputs))
					lds := make([]int, len(f.inputs))
					for i, typ := range f.inputs {
						lds[i] = 1
						size := m
						if f.vector[k][i] {
							lds[i] = n + 2*i + 1
							size = (m-1)*lds[i] + n
						}
						ins[i] = tc.newSlot(typ, size, i, rng).data
					}
					dst := tc.newSlot(f.out, (m-1)*ldd+n, 7, rng)
					want := clone(dst.data)
					f.ref(op, kind, m, n, want, ldd, ins, lds)
					f.run(op, kind, m, n, dst.data, ldd, ins, lds, false)
					what := fmt.Sprintf("%s %s %s %dx%d", f.name, f.ops[op], kind, m, n)
					requireSame(t, want, dst.data, what)
					dst.guards(t, what)
				}
			}
		}
	}
}

// TestOps pins the op names of the kernels' constants to the registry.
func TestOps(t *testing.T) {
	for _, tc := range typeCases(4) {
		require.NotEmpty(t, tc.families, tc.name)
		for _, f := range tc.families {
			require.NotEmpty(t, f.ops, "%s %s", tc.name, f.name)
		}
	}
	require.Equal(t, "add", kernel.OpAdd.String())
	require.Equal(t, "Op(99)", kernel.Op(99).String())
}
