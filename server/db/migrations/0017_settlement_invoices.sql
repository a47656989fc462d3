-- A doctor's invoice on a settlement (issue 11, decision 0067): its type is what the bytes are
-- (sniffed on upload) and its name the one it is downloaded under. Both belong to the settlement, not
-- to stored_files: identical bytes are stored once, under the first uploader's name and claimed type.
ALTER TABLE settlements
  ADD COLUMN invoice_name text CHECK (invoice_name IS NULL OR char_length(invoice_name) BETWEEN 1 AND 300),
  ADD COLUMN invoice_content_type text
    CHECK (invoice_content_type IS NULL OR invoice_content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
  ADD CONSTRAINT settlements_invoice_described
    CHECK ((invoice_name IS NULL AND invoice_content_type IS NULL) OR invoice_file_id IS NOT NULL);

