// SigV4 query presigning checked against the worked example in AWS's documentation ("Authenticating
// Requests: Using Query Parameters (AWS Signature Version 4)", GET examplebucket/test.txt).
import { describe, expect, it } from 'vitest';
import { presignS3 } from '../../server/files/s3-presign.ts';

const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
};

describe('S3 presigned addresses', () => {
  it('produce the signature of the AWS documentation example', () => {
    const url = presignS3(credentials, {
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      expiresInSeconds: 86400,
      now: new Date('2013-05-24T00:00:00Z'),
    });
    const signed = new URL(url);
    expect(signed.searchParams.get('X-Amz-Signature')).toBe(
      'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
    expect(signed.searchParams.get('X-Amz-Credential')).toBe(
      'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request',
    );
  });

  it('change when the method, the object or a signed header changes', () => {
    const base = {
      method: 'PUT' as const,
      url: 'https://s3.example.com/bucket/a',
      expiresInSeconds: 900,
      now: new Date('2024-01-01T00:00:00Z'),
      headers: { 'content-length': '10' },
    };
    const sig = (input: typeof base) =>
      new URL(presignS3(credentials, input)).searchParams.get('X-Amz-Signature');
    expect(sig(base)).not.toBe(sig({ ...base, url: 'https://s3.example.com/bucket/b' }));
    expect(sig(base)).not.toBe(sig({ ...base, headers: { 'content-length': '11' } }));
  });
});
