//! Readers of a banker game's seat roles: the banker seat and the seats'
//! multipliers, for one table (`settle`) and for a batch (`settle_batch`,
//! the bulk path). Whether the rules allow them is the core's check
//! (`settle`'s table checks); these read the values and their shapes.

use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::super::errors::err;
use super::cards::shape_text;
use super::numbers::int_in_range;
use super::text::type_name;
use capsa_core::batch::Banker;
use capsa_core::error::ErrorKind;
use capsa_core::settle::SeatInput;

fn given<'a, 'py>(obj: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    obj.filter(|o| !o.is_none())
}

/// A banker seat of an `n`-seat table: an integer in 0..n.
fn banker_seat(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<usize> {
    let v = int_in_range(obj, "banker", 0, n as i128 - 1, ErrorKind::Argument)?;
    Ok(v as usize)
}

/// Sets the banker (`None`: no banker) and the multipliers (`None`: each
/// 1; else one integer per seat) of one table's seats. An ArgumentError
/// for a banker that is not a seat or multipliers of another length or
/// beyond 64 bits; a TypeError for a value that is not an integer.
pub(crate) fn seat_roles(
    banker: Option<&Bound<'_, PyAny>>,
    multipliers: Option<&Bound<'_, PyAny>>,
    seats: &mut [SeatInput],
) -> PyResult<()> {
    let n = seats.len();
    if let Some(b) = given(banker) {
        seats[banker_seat(b, n)?].banker = true;
    }
    let Some(m) = given(multipliers) else {
        return Ok(());
    };
    if m.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!(
            "multipliers must be a sequence of {n} integers, not str"
        )));
    }
    let items: Vec<Bound<'_, PyAny>> = m
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "multipliers must be a sequence of {n} integers, not {}",
                type_name(m)
            ))
        })?
        .collect::<PyResult<_>>()?;
    if items.len() != n {
        return Err(err(
            ErrorKind::Argument,
            format!(
                "multipliers needs one integer per seat ({n}), got {}",
                items.len()
            ),
        ));
    }
    for (k, (item, seat)) in items.iter().zip(seats.iter_mut()).enumerate() {
        let what = format!("multipliers[{k}]");
        let v = int_in_range(
            item,
            &what,
            i64::MIN.into(),
            i64::MAX.into(),
            ErrorKind::Argument,
        )?;
        seat.multiplier = v as i64;
    }
    Ok(())
}

/// A numpy integer array as int64 values, row-major, checked to be of
/// `shape` (TypeError for another type or dtype, TableError for another
/// shape, as the batch's flag arrays).
fn int_array(obj: &Bound<'_, PyAny>, shape: &[usize], what: &str) -> PyResult<Vec<i64>> {
    let want = shape_text(shape);
    let Ok(arr) = obj.cast::<numpy::PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array of shape {want}, got {}",
            type_name(obj)
        )));
    };
    let kind = arr.dtype().kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a numpy integer array of shape {want}, got dtype {}",
            arr.dtype().str()?
        )));
    }
    if arr.shape() != shape {
        return Err(err(
            ErrorKind::Table,
            format!(
                "{what} must have shape {want}, got shape {}",
                shape_text(arr.shape())
            ),
        ));
    }
    // uint64 beyond int64 is refused here rather than wrapped
    let as64 = obj.call_method1("astype", ("int64",)).and_then(|a| {
        let back = a.call_method1("astype", (arr.dtype(),))?;
        let same = back.call_method1("__eq__", (obj,))?.call_method0("all")?;
        if !same.is_truthy()? {
            return Err(err(
                ErrorKind::Argument,
                format!("{what} holds a value beyond 64-bit integers"),
            ));
        }
        Ok(a)
    })?;
    let a = as64.cast::<numpy::PyArrayDyn<i64>>()?.readonly();
    Ok(a.as_array().iter().copied().collect())
}

/// The banker and multipliers of a batch of `n` tables of `p` seats:
/// `banker` None, one seat for every table or an int array of shape (n,);
/// `multipliers` None or an int array of shape (n, p). In an array, -1 is a
/// table of no banker; another value that is not a seat is an
/// ArgumentError naming the row.
pub(crate) fn batch_roles(
    banker: Option<&Bound<'_, PyAny>>,
    multipliers: Option<&Bound<'_, PyAny>>,
    n: usize,
    p: usize,
) -> PyResult<(Banker, Option<Vec<i64>>)> {
    let banker = match given(banker) {
        None => Banker::None,
        Some(b) if b.cast::<numpy::PyUntypedArray>().is_ok() => {
            let rows = int_array(b, &[n], "banker")?;
            let mut seats = Vec::with_capacity(n);
            for (row, &s) in rows.iter().enumerate() {
                if !(-1..p as i64).contains(&s) {
                    return Err(err(
                        ErrorKind::Argument,
                        format!(
                            "banker[{row}] must be a seat, in 0..{}, or -1 for none, got {s}",
                            p - 1
                        ),
                    ));
                }
                seats.push(u8::try_from(s).ok());
            }
            Banker::PerRow(seats)
        }
        Some(b) => Banker::Every(banker_seat(b, p)?),
    };
    let multipliers = given(multipliers)
        .map(|m| int_array(m, &[n, p], "multipliers"))
        .transpose()?;
    Ok((banker, multipliers))
}
