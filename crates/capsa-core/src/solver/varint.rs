//! LEB128 varints: the integers of a tables file.

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// A varint at `*pos`, advancing it; the error says what is wrong.
pub(super) fn get_varint(data: &[u8], pos: &mut usize) -> std::result::Result<u64, &'static str> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *data.get(*pos).ok_or("truncated data")?;
        *pos += 1;
        let bits = (b & 0x7f) as u64;
        // the tenth byte may carry only the top bit of a u64
        if shift == 63 && bits > 1 {
            return Err("a varint overflows 64 bits");
        }
        v |= bits << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
        shift += 7;
        if shift > 63 {
            return Err("a varint is longer than 10 bytes");
        }
    }
}
