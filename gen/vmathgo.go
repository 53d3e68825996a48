package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/simdkit/elem/gen/registry"
)

// writeMathGo writes internal/kernel's math functions, one Go function per
// MathProgram (exp32, exp64, ...): the scalar form of the same steps the
// assembly runs, which the generic kernels call. Every float operation is
// a statement of its own under an explicit conversion, and every fused
// step a call of math.FMA (fma32 for float32), so that no compiler may fuse
// or reorder: the roundings are those of the program on every architecture.
func writeMathGo(dir string) error {
	g := newGoFile(filepath.Join(dir, "vmath_generated.go"), "", "kernel", "math")
	tables := map[string]bool{}
	for _, o := range registry.Ops {
		if !o.Math {
			continue
		}
		for _, t := range registry.Floats {
			p := registry.MathProgramOf(o, t)
			writeMathFunc(g, p)
			for i, tab := range p.Tables {
				if name := p.TableSymbol(i); !tables[name] {
					tables[name] = true
					writeMathTable(g, name, p.T, tab.Entries)
				}
			}
		}
	}
	return g.write()
}

// writeMathTable writes a lookup table of the math functions.
func writeMathTable(g *goFile, name string, t registry.Type, entries []uint64) {
	g.doc(fmt.Sprintf("%s is a lookup table of the math functions (see gen/registry).", name))
	g.p("var %s = [...]uint%d{", name, t.Bits)
	for i := 0; i < len(entries); i += 4 {
		var row []string
		for _, e := range entries[i:min(i+4, len(entries))] {
			row = append(row, fmt.Sprintf("%#x,", e))
		}
		g.p("%s", strings.Join(row, " "))
	}
	g.p("}")
	g.p("")
}

// mathFuncName is the Go function of program p: "exp32".
func mathFuncName(p *registry.MathProgram) string { return fmt.Sprintf("%s%d", p.Name, p.T.Bits) }

func writeMathFunc(g *goFile, p *registry.MathProgram) {
	t, u := p.T.GoName, fmt.Sprintf("uint%d", p.T.Bits)
	lanes := p.Lanes()
	fromBits, toBits := "math.Float64frombits", "math.Float64bits"
	fma := "math.FMA"
	if p.T.Bits == 32 {
		fromBits, toBits, fma = "math.Float32frombits", "math.Float32bits", "fma32"
	}
	// val is step i's value viewed as want.
	val := func(i int, want registry.Lane) string {
		s := p.Steps[i]
		if s.Op == registry.MConst {
			if want == registry.LaneFloat {
				return floatLiteral(s.Imm, p.T)
			}
			return fmt.Sprintf("%s(%#x)", u, s.Imm)
		}
		name := fmt.Sprintf("v%d", i)
		if s.Op == registry.MIn {
			name = fmt.Sprintf("x%d", s.Imm)
		}
		switch {
		case lanes[i] == want || want == registry.LaneMask:
			return name
		case want == registry.LaneFloat:
			return fromBits + "(" + name + ")"
		}
		return toBits + "(" + name + ")"
	}
	args := func(s registry.MathStep, want registry.Lane) []any {
		var as []any
		for _, a := range s.Args {
			as = append(as, val(a, want))
		}
		return as
	}
	var params []string
	for i := range p.Inputs {
		params = append(params, fmt.Sprintf("x%d", i))
	}
	g.doc(fmt.Sprintf("%s is %s on %s, the steps of its program (see gen/registry/vmath.go).", mathFuncName(p), p.Name, t))
	g.p("func %s(%s %s) %s {", mathFuncName(p), strings.Join(params, ", "), t, t)
	binary := map[registry.MathOp]string{registry.MAdd: "+", registry.MSub: "-", registry.MMul: "*", registry.MDiv: "/"}
	bitOps := map[registry.MathOp]string{registry.MIAdd: "+", registry.MISub: "-", registry.MAnd: "&", registry.MOr: "|",
		registry.MXor: "^"}
	compares := map[registry.MathOp]string{registry.MLt: "<", registry.MEq: "=="}
	// A block's results are declared before it with the values of before
	// it, and the block runs only for an element in its mask.
	outs := map[int]bool{}
	ends := map[int]bool{}
	for i, s := range p.Steps {
		v := fmt.Sprintf("v%d", i)
		if bl, ok := p.BlockAt(i); ok {
			for _, o := range bl.Outs {
				outs[o] = true
				g.p("v%d := %s", o, val(p.Steps[o].Args[2], lanes[o]))
			}
			ends[bl.End-1] = true
			g.p("if %s {", val(bl.Cond, registry.LaneMask))
		}
		if outs[i] {
			g.p("%s = %s", v, val(s.Args[1], lanes[i]))
			if ends[i] {
				g.p("}")
			}
			continue
		}
		switch op := s.Op; {
		case op == registry.MIn || op == registry.MConst:
			continue
		case binary[op] != "":
			a := args(s, registry.LaneFloat)
			g.p("%s := %s(%s %s %s)", v, t, a[0], binary[op], a[1])
		case op == registry.MFMA:
			g.p("%s := %s(%s, %s, %s)", append([]any{v, fma}, args(s, registry.LaneFloat)...)...)
		case op == registry.MFNMA:
			g.p("%s := %s(-%s, %s, %s)", append([]any{v, fma}, args(s, registry.LaneFloat)...)...)
		case op == registry.MMin:
			g.p("%s := min(%s, %s)", append([]any{v}, args(s, registry.LaneFloat)...)...)
		case op == registry.MMax:
			g.p("%s := max(%s, %s)", append([]any{v}, args(s, registry.LaneFloat)...)...)
		case bitOps[op] != "":
			a := args(s, registry.LaneBits)
			g.p("%s := %s %s %s", v, a[0], bitOps[op], a[1])
		case op == registry.MShl:
			g.p("%s := %s << %d", v, val(s.Args[0], registry.LaneBits), s.Imm)
		case op == registry.MShr:
			g.p("%s := %s >> %d", v, val(s.Args[0], registry.LaneBits), s.Imm)
		case compares[op] != "":
			a := args(s, registry.LaneFloat)
			g.p("%s := %s %s %s", v, a[0], compares[op], a[1])
		case op == registry.MSqrt:
			g.p("%s := %s(math.Sqrt(float64(%s)))", v, t, val(s.Args[0], registry.LaneFloat))
		case op == registry.MNLt:
			a := args(s, registry.LaneFloat)
			g.p("%s := !(%s < %s)", v, a[0], a[1])
		case op == registry.MNaN:
			a := val(s.Args[0], registry.LaneFloat)
			g.p("%s := %s != %s", v, a, a)
		case op == registry.MMaskAnd:
			g.p("%s := %s && %s", v, val(s.Args[0], registry.LaneMask), val(s.Args[1], registry.LaneMask))
		case op == registry.MMaskOr:
			g.p("%s := %s || %s", v, val(s.Args[0], registry.LaneMask), val(s.Args[1], registry.LaneMask))
		case op == registry.MTable:
			g.p("%s := %s[%s&%#x]", v, p.TableSymbol(int(s.Imm)), val(s.Args[0], registry.LaneBits), len(p.Tables[s.Imm].Entries)-1)
		case op == registry.MSelect:
			g.p("%s := %s", v, val(s.Args[2], lanes[i]))
			g.p("if %s { %s = %s }", val(s.Args[0], registry.LaneMask), v, val(s.Args[1], lanes[i]))
		default:
			panic(fmt.Sprintf("gen: %s: no Go form of step %d", p.Name, i))
		}
	}
	g.p("return %s", val(p.Out, registry.LaneFloat))
	g.p("}")
	g.p("")
}

// floatLiteral spells the constant with bits b of float type t as a typed
// Go constant that converts back to exactly those bits.
func floatLiteral(b uint64, t registry.Type) string {
	var x float64
	if t.Bits == 32 {
		x = float64(math.Float32frombits(uint32(b)))
	} else {
		x = math.Float64frombits(b)
	}
	switch {
	case math.IsInf(x, 1):
		return fmt.Sprintf("%s(math.Inf(1))", t.GoName)
	case math.IsInf(x, -1):
		return fmt.Sprintf("%s(math.Inf(-1))", t.GoName)
	case math.IsNaN(x):
		panic("gen: a NaN constant is bits, not a float")
	}
	return fmt.Sprintf("%s(%s)", t.GoName, strconv.FormatFloat(x, 'g', -1, t.Bits))
}
