//! The one framing codec: a little-endian `u32` payload length, then a bincode 2 payload (standard config).

use bincode::{Decode, Encode};

/// Largest payload either side accepts; a bigger length prefix is a protocol fault, not an allocation.
pub const MAX_FRAME_BYTES: u32 = 64 * 1024 * 1024;

/// Bytes of the length prefix.
pub const HEADER_BYTES: usize = 4;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FrameError {
    #[error("frame of {0} bytes exceeds the limit of {MAX_FRAME_BYTES} bytes")]
    Oversized(u64),
    #[error("malformed frame: {0}")]
    Malformed(String),
}

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// The payload bytes of `message`, without the length prefix.
pub fn encode_payload<T: Encode>(message: &T) -> Result<Vec<u8>, FrameError> {
    let payload = bincode::encode_to_vec(message, config()).map_err(|e| FrameError::Malformed(e.to_string()))?;
    check_len(payload.len() as u64)?;
    Ok(payload)
}

/// A whole frame: length prefix and payload.
pub fn encode_frame<T: Encode>(message: &T) -> Result<Vec<u8>, FrameError> {
    let payload = encode_payload(message)?;
    let mut frame = Vec::with_capacity(HEADER_BYTES + payload.len());
    frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    frame.extend_from_slice(&payload);
    Ok(frame)
}

/// Validates a length prefix before anything is allocated for the payload.
pub fn payload_len(header: [u8; HEADER_BYTES]) -> Result<usize, FrameError> {
    let len = u32::from_le_bytes(header);
    check_len(u64::from(len))?;
    Ok(len as usize)
}

/// Decodes one payload; trailing bytes make the frame malformed.
pub fn decode_payload<T: Decode<()>>(payload: &[u8]) -> Result<T, FrameError> {
    let (value, read) =
        bincode::decode_from_slice(payload, config()).map_err(|e| FrameError::Malformed(e.to_string()))?;
    if read != payload.len() {
        return Err(FrameError::Malformed(format!("{} trailing bytes", payload.len() - read)));
    }
    Ok(value)
}

fn check_len(len: u64) -> Result<(), FrameError> {
    if len > u64::from(MAX_FRAME_BYTES) {
        return Err(FrameError::Oversized(len));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{BrokerMessage, RequestId};

    #[test]
    fn frame_round_trips() {
        let message = BrokerMessage::Cancel(RequestId(300));
        let frame = encode_frame(&message).expect("encodes");
        let len = payload_len(frame[..4].try_into().expect("header")).expect("length");
        assert_eq!(len, frame.len() - 4);
        assert_eq!(decode_payload::<BrokerMessage>(&frame[4..]), Ok(message));
    }

    #[test]
    fn oversized_length_is_refused_before_reading() {
        let header = (MAX_FRAME_BYTES + 1).to_le_bytes();
        assert_eq!(payload_len(header), Err(FrameError::Oversized(u64::from(MAX_FRAME_BYTES) + 1)));
    }

    #[test]
    fn unknown_variant_and_trailing_bytes_are_malformed() {
        assert!(matches!(decode_payload::<BrokerMessage>(&[9]), Err(FrameError::Malformed(_))));
        assert!(matches!(decode_payload::<BrokerMessage>(&[3, 0]), Err(FrameError::Malformed(_))));
        assert!(matches!(decode_payload::<BrokerMessage>(&[]), Err(FrameError::Malformed(_))));
    }
}
