package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/simdkit/elem/gen/registry"
)

// writeKernelTests writes internal/kernel/families_generated_test.go: every
// family described to the tests, with its entry and reference callable on
// type-erased operands, so that one harness checks every op, kind and
// element type the registry has.
func writeKernelTests(dir string) error {
	g := newGoFile(filepath.Join(dir, "families_generated_test.go"), "", "kernel_test",
		"github.com/simdkit/elem/internal/kernel")
	g.doc("conversions lists every conversion with its entry and reference.")
	g.p("func conversions() []conversion {")
	g.p("return []conversion{")
	for _, c := range registry.Conversions() {
		g.p("{from: %q, to: %q,", c.From.GoName, c.To.GoName)
		g.p("run: func(m, n int, dst any, ldd int, src any, lds int, stream bool) { kernel.Convert(m, n, dst.([]%s), ldd, src.([]%s), lds, stream) },", c.To.GoName, c.From.GoName)
		g.p("ref: func(m, n int, dst any, ldd int, src any, lds int) { kernel.ReferenceConvert(m, n, dst.([]%s), ldd, src.([]%s), lds) },", c.To.GoName, c.From.GoName)
		g.p("},")
	}
	g.p("}")
	g.p("}")
	g.p("")
	for _, class := range []struct{ name, constraint string }{{"families", "Float"}, {"intFamilies", "Integer"}} {
		g.doc(fmt.Sprintf("%s describes every family of operations with ops defined on the\n%s types, for element type T, with those ops.", class.name, strings.ToLower(class.constraint)))
		g.p("func %s[T kernel.%s]() []family {", class.name, class.constraint)
		g.p("return []family{")
		for _, f := range registry.Families {
			if c := familyConstraint(f); c == "Number" || c == class.constraint {
				writeTestFamily(g, f, class.constraint == "Float")
			}
		}
		g.p("}")
		g.p("}")
		g.p("")
	}
	return g.write()
}

// writeTestFamily writes one family's entry in the tests' family table, with
// the ops defined on floats or on integers: op i of the entry is the i-th of
// those.
func writeTestFamily(g *goFile, f *registry.Family, floats bool) {
	var ops, index, kinds, vectors, inputs []string
	for i, o := range registry.OpsOf(f) {
		for _, t := range o.Types {
			if t.Float == floats {
				ops = append(ops, fmt.Sprintf("%q", o.Name))
				index = append(index, fmt.Sprint(i))
				break
			}
		}
	}
	if len(ops) == 0 {
		return
	}
	for _, k := range f.Kinds {
		kinds = append(kinds, "kernel."+k.Const())
		var v []string
		for _, b := range k.Vector {
			v = append(v, fmt.Sprint(b))
		}
		vectors = append(vectors, "{"+strings.Join(v, ", ")+"}")
	}
	for _, in := range f.Inputs {
		inputs = append(inputs, fmt.Sprintf("%q", in.Type))
	}
	entry, typ := opValuedEntry(f), f.OpType
	var args []string
	for i, in := range f.Inputs {
		args = append(args, fmt.Sprintf("in[%d].([]%s), ld[%d]", i, in.Type, i))
	}
	call := fmt.Sprintf("m, n, dst.([]%s), ldd, %s", f.Out, strings.Join(args, ", "))
	g.p("{name: %q, ops: []string{%s}, kinds: []kernel.Kind{%s}, vector: [][]bool{%s}, inputs: []string{%s}, out: %q, stream: %v,",
		f.Name, strings.Join(ops, ", "), strings.Join(kinds, ", "), strings.Join(vectors, ", "), strings.Join(inputs, ", "), f.Out, f.Stream)
	g.p("run: func(op int, k kernel.Kind, m, n int, dst any, ldd int, in []any, ld []int, stream bool) {")
	opOf := fmt.Sprintf("kernel.%s([...]int{%s}[op])", typ, strings.Join(index, ", "))
	g.p("kernel.%s(k, %s, %s, stream)", entry, opOf, call)
	g.p("},")
	g.p("ref: func(op int, k kernel.Kind, m, n int, dst any, ldd int, in []any, ld []int) {")
	g.p("kernel.Reference%s(k, %s, %s)", familyPrefix(f), opOf, call)
	g.p("},")
	g.p("},")
}

// writeElemTests writes ops_generated_test.go in package elem: every named
// call of every op with the kernel reference it must equal, so that the
// tests reach each call the registry generates.
func writeElemTests(path string) error {
	g := newGoFile(path, "", "elem", "github.com/simdkit/elem/internal/kernel")
	for _, class := range []struct {
		name, constraint string
		floats           bool
	}{{"namedCalls", "Float", true}, {"intNamedCalls", "Integer", false}} {
		g.doc(fmt.Sprintf("%s lists every named call on the %s types, for element type T.", class.name, strings.ToLower(class.constraint)))
		g.p("func %s[T %s]() []namedCall {", class.name, class.constraint)
		g.p("return []namedCall{")
		for _, o := range registry.Ops {
			if hasTypes(o, class.floats) {
				writeTestNamedCalls(g, o)
			}
		}
		g.p("}")
		g.p("}")
		g.p("")
	}
	return g.write()
}

// hasTypes reports whether op o is defined on float (or integer) types.
func hasTypes(o registry.Op, floats bool) bool {
	for _, t := range o.Types {
		if t.Float == floats {
			return true
		}
	}
	return false
}

// writeTestNamedCalls writes the test table entries of op o's named calls.
func writeTestNamedCalls(g *goFile, o registry.Op) {
	f := o.Family
	for _, form := range o.NamedForms() {
		k := f.FindKind(form.Kind)
		ps := formParams(o, form)
		var args, vec, types, refArgs []string
		for i, p := range ps {
			vec = append(vec, fmt.Sprint(p.vector))
			types = append(types, fmt.Sprintf("%q", p.typ))
			if p.vector {
				args = append(args, fmt.Sprintf("in[%d].([]%s)", i, p.typ))
			} else {
				args = append(args, fmt.Sprintf("in[%d].([]%s)[0]", i, p.typ))
			}
			refArgs = append(refArgs, fmt.Sprintf("in[%d].([]%s), 0", i, p.typ))
		}
		g.p("{name: %q, op: %q, kind: %q, vector: []bool{%s}, inputs: []string{%s}, out: %q,", form.Name, o.Name, k.Name, strings.Join(vec, ", "), strings.Join(types, ", "), f.Out)
		g.p("run: func(dst any, in []any) { %s(dst.([]%s), %s) },", form.Name, f.Out, strings.Join(args, ", "))
		g.p("ref: func(n int, dst any, in []any) { kernel.Reference%s(kernel.%s, kernel.%s, 1, n, dst.([]%s), 0, %s) },",
			familyPrefix(f), k.Const(), o.Const(), f.Out, strings.Join(refArgs, ", "))
		g.p("},")
	}
}
