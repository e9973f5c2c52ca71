// A search box with its magnifier icon, used by every list that filters as you type.
import { Search } from 'lucide-react';
import { cn } from './cn.ts';
import { Input } from './input.tsx';

export function SearchField({
  value,
  onChange,
  label,
  placeholder,
  autoFocus,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder: string;
  autoFocus?: boolean;
  className?: string;
}) {
  return (
    <div className={cn('relative', className)}>
      <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-faint" aria-hidden />
      <Input
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-label={label}
        className="pl-8"
        autoFocus={autoFocus}
      />
    </div>
  );
}
