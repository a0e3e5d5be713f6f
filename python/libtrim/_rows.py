"""Results as rows: lists of dicts that also turn into pandas DataFrames and
show as tables in Jupyter."""
import html


def _cell(v):
    if isinstance(v, float):
        return "%.6g" % v
    if isinstance(v, dict):
        return ", ".join("%s=%s" % (k, _cell(x)) for k, x in v.items())
    return str(v)


def html_table(rows, columns=None, limit=200):
    """An HTML table of a list of dicts (the first ``limit`` rows)."""
    rows = list(rows)
    if columns is None:
        columns = []
        for r in rows:
            columns.extend(k for k in r if k not in columns)
    out = ["<table><thead><tr>"]
    out += ["<th>%s</th>" % html.escape(str(c)) for c in columns]
    out.append("</tr></thead><tbody>")
    for r in rows[:limit]:
        out.append("<tr>")
        out += ["<td>%s</td>" % html.escape(_cell(r.get(c, ""))) for c in columns]
        out.append("</tr>")
    out.append("</tbody></table>")
    if len(rows) > limit:
        out.append("<p>... %d more rows</p>" % (len(rows) - limit))
    return "".join(out)


def frame(rows):
    """A pandas DataFrame of a list of dicts, nested dicts flattened into
    "key.sub" columns (``bounds.N``). ImportError without pandas (Debian:
    python3-pandas)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("libtrim: DataFrames need pandas (Debian: apt-get install "
                          "python3-pandas); the rows are plain lists of dicts without it") from e
    return pandas.json_normalize(list(rows))


class Rows(list):
    """A plain list of dicts (one per workload, level, point, ...), with
    ``frame()`` for a pandas DataFrame and an HTML table in Jupyter."""

    def frame(self):
        return frame(self)

    def _repr_html_(self):
        return html_table(self)
