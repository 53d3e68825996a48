package main

import (
	"fmt"
	"io"
	"strings"
)

// column is one column of the table; neighbours with the same group share a
// heading above their names.
type column struct {
	group, name string
	width       int
}

// copyGroup heads the columns about the copy of the same bytes.
const copyGroup = "copy of same bytes"

// tableColumns are the table's columns after the workload name: ns/elem,
// GB/s and spread per implementation, the speedup of each non-generic one
// over generic, and the copy reference.
func tableColumns(impls []string) []column {
	var cs []column
	for _, impl := range impls {
		cs = append(cs, column{impl, "ns/elem", 8}, column{impl, "GB/s", 6}, column{impl, "spread", 6})
	}
	for _, impl := range comparedImpls(impls) {
		cs = append(cs, column{"speedup over generic", impl, max(len(impl), len("0.00x!"))})
	}
	cs = append(cs, column{copyGroup, "GB/s", 6}, column{copyGroup, "spread", 6},
		column{copyGroup, "best/copy", max(len("best/copy"), len("0.00 !")+maxLen(impls))})
	// Widen a group's columns until its heading fits over the group.
	for _, g := range groups(cs) {
		extra := max(0, len(g[0].group)-span(g))
		for i := range g {
			g[i].width += extra / len(g)
		}
		g[len(g)-1].width += extra % len(g)
	}
	return cs
}

// span is the width of a group of columns, with the gaps between them.
func span(g []column) int {
	n := 2 * (len(g) - 1)
	for _, c := range g {
		n += c.width
	}
	return n
}

// groups splits columns into runs with the same group, sharing cs's storage.
func groups(cs []column) [][]column {
	var gs [][]column
	for start, i := 0, 1; i <= len(cs); i++ {
		if i == len(cs) || cs[i].group != cs[start].group {
			gs = append(gs, cs[start:i])
			start = i
		}
	}
	return gs
}

func maxLen(ss []string) int {
	n := 0
	for _, s := range ss {
		n = max(n, len(s))
	}
	return n
}

// comparedImpls are the implementations the speedup columns compare with
// generic: all the others, or none when generic is not timed.
func comparedImpls(impls []string) []string {
	var out []string
	for _, impl := range impls {
		if impl != "generic" {
			out = append(out, impl)
		}
	}
	if len(out) == len(impls) {
		return nil
	}
	return out
}

// speedup is how many times faster impl ran than the generic kernels: below
// 1 when it is slower.
func speedup(generic, impl timing) float64 { return generic.median / impl.median }

// rowCells formats one workload's timings per implementation, and the copy
// of the same bytes, as the cells of tableColumns(impls).
func rowCells(wl workload, impls []string, ts map[string]timing, cp timing) []string {
	bytes := float64(wl.bytes)
	var cells []string
	fastest := impls[0]
	for _, impl := range impls {
		t := ts[impl]
		cells = append(cells, fmt.Sprintf("%.3f", t.median/float64(wl.elems)), fmt.Sprintf("%.1f", bytes/t.median), spreadCell(t))
		if t.median < ts[fastest].median {
			fastest = impl
		}
	}
	// A ratio is marked when either of its timings is noisy.
	g := ts["generic"]
	for _, impl := range comparedImpls(impls) {
		cells = append(cells, marked(fmt.Sprintf("%.2fx", speedup(g, ts[impl])), g.noisy() || ts[impl].noisy()))
	}
	f := ts[fastest]
	return append(cells, fmt.Sprintf("%.1f", bytes/cp.median), spreadCell(cp),
		fmt.Sprintf("%s %-*s", marked(fmt.Sprintf("%.2f", cp.median/f.median), cp.noisy() || f.noisy()), maxLen(impls), fastest))
}

// printHeader writes the two heading lines: the groups centred over their
// columns, then the column names.
func printHeader(w io.Writer, nameWidth int, cs []column) {
	var line strings.Builder
	fmt.Fprintf(&line, "%-*s", nameWidth, "")
	for _, g := range groups(cs) {
		pad := span(g) - len(g[0].group)
		fmt.Fprintf(&line, "  %s%s%s", strings.Repeat(" ", pad-pad/2), g[0].group, strings.Repeat(" ", pad/2))
	}
	fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	printRow(w, nameWidth, "workload", cs, names)
}

// printRow writes one line: the name left-aligned, the cells right-aligned
// in their columns.
func printRow(w io.Writer, nameWidth int, name string, cs []column, cells []string) {
	var line strings.Builder
	fmt.Fprintf(&line, "%-*s", nameWidth, name)
	for i, c := range cs {
		fmt.Fprintf(&line, "  %*s", c.width, cells[i])
	}
	fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
}
