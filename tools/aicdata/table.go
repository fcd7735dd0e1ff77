package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// Table is a flat parquet file loaded into memory: column names and, per row,
// each column's value as a float (NaN when not numeric) and as a string.
type Table struct {
	Cols []string
	Nums [][]float64
	Strs [][]string
	idx  map[string]int
}

// Load reads a flat (non-nested) parquet file.
func Load(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t := &Table{idx: map[string]int{}}
	for i, c := range pf.Schema().Columns() {
		name := c[len(c)-1]
		t.Cols = append(t.Cols, name)
		t.idx[name] = i
	}
	n := len(t.Cols)
	buf := make([]parquet.Row, 256)
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		for {
			k, err := rows.ReadRows(buf)
			for _, r := range buf[:k] {
				nums := make([]float64, n)
				strs := make([]string, n)
				for j := range nums {
					nums[j] = nan
				}
				for _, v := range r {
					c := v.Column()
					if c < 0 || c >= n {
						continue
					}
					nums[c], strs[c] = conv(v)
				}
				t.Nums = append(t.Nums, nums)
				t.Strs = append(t.Strs, strs)
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		rows.Close()
	}
	return t, nil
}

func conv(v parquet.Value) (float64, string) {
	if v.IsNull() {
		return nan, ""
	}
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return 1, "true"
		}
		return 0, "false"
	case parquet.Int32:
		return float64(v.Int32()), strconv.Itoa(int(v.Int32()))
	case parquet.Int64:
		return float64(v.Int64()), strconv.FormatInt(v.Int64(), 10)
	case parquet.Float:
		return float64(v.Float()), strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		return v.Double(), strconv.FormatFloat(v.Double(), 'g', -1, 64)
	case parquet.ByteArray, parquet.FixedLenByteArray:
		s := string(v.ByteArray())
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, s
		}
		return nan, s
	}
	return nan, v.String()
}

// Col returns the index of a column, or -1.
func (t *Table) Col(name string) int {
	if i, ok := t.idx[name]; ok {
		return i
	}
	return -1
}

// Num returns row r's value of column name (NaN when absent).
func (t *Table) Num(r int, name string) float64 {
	i := t.Col(name)
	if i < 0 {
		return nan
	}
	return t.Nums[r][i]
}

// Str returns row r's value of column name as a string ("" when absent).
func (t *Table) Str(r int, name string) string {
	i := t.Col(name)
	if i < 0 {
		return ""
	}
	return t.Strs[r][i]
}
