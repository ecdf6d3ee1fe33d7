//! The one reader of card-id numpy arrays, for every batch entry point.

use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::args::type_name;
use super::errors::err;
use crate::error::{Error, ErrorKind};

/// Card ids of an (N, ...) numpy array: borrowed when it is uint8 and
/// C-contiguous (the fast path), else a checked uint8 copy.
pub(crate) struct CardArray<'py> {
    borrowed: Option<numpy::PyReadonlyArrayDyn<'py, u8>>,
    owned: Vec<u8>,
    pub(crate) shape: Vec<usize>,
}

impl CardArray<'_> {
    /// The ids, row-major.
    pub(crate) fn ids(&self) -> PyResult<&[u8]> {
        match &self.borrowed {
            Some(a) => Ok(a.as_slice()?),
            None => Ok(&self.owned),
        }
    }
}

/// An array shape as numpy writes it: `(2, 3)`, `(5,)`, `()`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    if shape.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    }
}

/// Where flat index `index` of an array of `shape` is, for messages:
/// "row r, column c" (with "seat s" between for (N, P, 13) tables).
fn position(shape: &[usize], index: usize) -> (String, Option<usize>) {
    let width = shape.last().copied().unwrap_or(1).max(1);
    let (rest, column) = (index / width, index % width);
    if shape.len() == 3 {
        let seats = shape[1].max(1);
        let (row, seat) = (rest / seats, rest % seats);
        (
            format!("row {row}, seat {seat}, column {column}"),
            Some(seat),
        )
    } else {
        (format!("row {rest}, column {column}"), None)
    }
}

/// Narrows checked integer ids to u8, naming the first one outside 0..51.
fn narrow_ids<T: Copy + Into<i128>>(values: &[T], shape: &[usize]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(values.len());
    for (index, &v) in values.iter().enumerate() {
        let v: i128 = v.into();
        if !(0..52).contains(&v) {
            let (place, seat) = position(shape, index);
            let e = Error::card(format!("{place}: card id {v} is outside 0..51"));
            return Err(match seat {
                Some(s) => e.at_seat(s),
                None => e,
            });
        }
        out.push(v as u8);
    }
    Ok(out)
}

/// `np.ascontiguousarray(arr, dtype)` as an array of `T`.
fn contiguous_as<'py, T: numpy::Element>(
    arr: &Bound<'py, PyAny>,
    dtype: &str,
) -> PyResult<numpy::PyReadonlyArrayDyn<'py, T>> {
    let np = arr.py().import(pyo3::intern!(arr.py(), "numpy"))?;
    let copy = np.call_method1(
        pyo3::intern!(arr.py(), "ascontiguousarray"),
        (arr, np.getattr(dtype)?),
    )?;
    Ok(copy.cast_into::<numpy::PyArrayDyn<T>>()?.readonly())
}

/// The one reader of card-id arrays for every batch entry point. Accepts a
/// numpy array of any integer dtype (any byte order, any strides, read-only
/// too) whose shape `shape_ok` accepts (`want` describes it, e.g.
/// "(N, 13)"). Refuses other dtypes and non-arrays (TypeError naming the
/// dtype or type) and other shapes (TableError naming the shape). A uint8
/// C-contiguous array is borrowed as is (its ids are checked by the row
/// code, as before); any other is copied, each id checked to be in 0..51
/// (CardError naming the row and column).
pub(crate) fn card_array<'py>(
    arr: &Bound<'py, PyAny>,
    what: &str,
    want: &str,
    shape_ok: impl Fn(&[usize]) -> bool,
) -> PyResult<CardArray<'py>> {
    let Ok(untyped) = arr.cast::<numpy::PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array of shape {want}, not {}",
            type_name(arr)
        )));
    };
    let dtype = untyped.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array (uint8 is fastest), got dtype {}",
            dtype.str().map(|d| d.to_string()).unwrap_or_default()
        )));
    }
    let shape = untyped.shape().to_vec();
    if !shape_ok(&shape) {
        return Err(err(
            ErrorKind::Table,
            format!(
                "{what} must have shape {want}, got shape {}",
                shape_text(&shape)
            ),
        ));
    }
    if let Ok(typed) = arr.cast::<numpy::PyArrayDyn<u8>>() {
        let ro = typed.readonly();
        if ro.is_c_contiguous() {
            return Ok(CardArray {
                borrowed: Some(ro),
                owned: Vec::new(),
                shape,
            });
        }
        let owned = ro.as_array().iter().copied().collect();
        return Ok(CardArray {
            borrowed: None,
            owned,
            shape,
        });
    }
    let owned = if kind == b'u' {
        narrow_ids(contiguous_as::<u64>(arr, "uint64")?.as_slice()?, &shape)?
    } else {
        narrow_ids(contiguous_as::<i64>(arr, "int64")?.as_slice()?, &shape)?
    };
    Ok(CardArray {
        borrowed: None,
        owned,
        shape,
    })
}

/// [`card_array`] for (N, width) hands, one of `widths` cards a row.
pub(crate) fn card_rows<'py>(
    arr: &Bound<'py, PyAny>,
    widths: &[usize],
    what: &str,
) -> PyResult<CardArray<'py>> {
    let want = widths
        .iter()
        .map(|w| format!("(N, {w})"))
        .collect::<Vec<_>>()
        .join(" or ");
    card_array(arr, what, &want, |shape| {
        shape.len() == 2 && widths.contains(&shape[1])
    })
}
