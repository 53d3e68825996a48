//go:build linux

package kernel_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/simdkit/elem/internal/testkit"
)

// TestGuardPages runs every kernel on every length up to 130 (20 under
// -race, see testkit.Sweep) with each operand flush against an
// inaccessible page, after it and before it: a read or write past either
// end of any slice faults and kills the test.
func TestGuardPages(t *testing.T) {
	testkit.EachSIMDImplementation(t, func(t *testing.T) {
		eachType(t, 5, testGuardPages)
	})
}

// place returns n elements of x's type flush against the guard page at one
// end, holding x's values.
func place(g *testkit.GuardPages, x any, atEnd bool) any {
	v := reflect.ValueOf(x)
	size := int(v.Type().Elem().Size())
	mem := testkit.AtStart[byte](g, v.Len()*size)
	if atEnd {
		mem = testkit.AtEnd[byte](g, v.Len()*size)
	}
	p := reflect.NewAt(v.Type().Elem(), reflect.ValueOf(mem).UnsafePointer())
	placed := reflect.SliceAt(v.Type().Elem(), p.UnsafePointer(), v.Len())
	reflect.Copy(placed, v)
	return placed.Interface()
}

func testGuardPages(t *testing.T, tc typeCase) {
	gd := testkit.NewGuardPages(t, 1)
	var gs [3]*testkit.GuardPages
	for i := range gs {
		gs[i] = testkit.NewGuardPages(t, 1)
	}
	for _, atEnd := range []bool{true, false} {
		for _, f := range tc.families {
			for op := range f.ops {
				for k, kind := range f.kinds {
					for n := 0; n <= testkit.Sweep(130, 130, 20); n++ {
						ins := make([]any, len(f.inputs))
						for i, typ := range f.inputs {
							size := 1
							if f.vector[k][i] {
								size = n
							}
							ins[i] = place(gs[i], ordinary(tc, typ, size), atEnd)
						}
						dst := place(gd, tc.makeOut(f.out, n), atEnd)
						want := tc.makeOut(f.out, n)
						ld := make([]int, len(ins))
						f.ref(op, kind, 1, n, want, 0, ins, ld)
						f.run(op, kind, 1, n, dst, 0, ins, ld, tc.stream(n, len(ins)+1))
						requireSame(t, want, dst, fmt.Sprintf("%s %s %s n=%d at end %v", f.name, f.ops[op], kind, n, atEnd))
					}
				}
			}
		}
	}
}

// ordinary returns n ordinary values of typ.
func ordinary(tc typeCase, typ string, n int) any {
	switch typ {
	case "bool":
		b := make([]bool, n)
		for i := range b {
			b[i] = i%3 == 0
		}
		return b
	case "uint":
		c := make([]uint, n)
		for i := range c {
			c[i] = uint(i % 9)
		}
		return c
	}
	one := uint64(0x3f800000) // 1.0 as float32; a bit pattern like any other for the integers
	if tc.name == "float64" {
		one = 0x3ff0000000000000
	}
	return tc.fromBits(n, func(i int) uint64 { return one + uint64(i)<<8 })
}

// TestConvertGuardPages runs every conversion on every length up to 130
// with source and destination flush against an inaccessible page.
func TestConvertGuardPages(t *testing.T) {
	testkit.EachSIMDImplementation(t, func(t *testing.T) {
		cases := typeCases(10)
		gd, gs := testkit.NewGuardPages(t, 1), testkit.NewGuardPages(t, 1)
		for _, c := range conversions() {
			from, to := caseOf(cases, c.from), caseOf(cases, c.to)
			for _, atEnd := range []bool{true, false} {
				for n := 0; n <= 130; n++ {
					src := place(gs, ordinary(from, "T", n), atEnd)
					dst := place(gd, to.makeOut("T", n), atEnd)
					want := to.makeOut("T", n)
					c.ref(1, n, want, 0, src, 0)
					c.run(1, n, dst, 0, src, 0, to.stream(n, 2))
					requireSame(t, want, dst, fmt.Sprintf("%s to %s n=%d at end %v", c.from, c.to, n, atEnd))
				}
			}
		}
	})
}
